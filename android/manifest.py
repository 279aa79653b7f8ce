#!/usr/bin/env python3
"""Writes AndroidManifest.xml from Cargo.toml's [package.metadata.android] (the table
cargo-apk reads), for a NativeActivity app with no Java code.

Usage: manifest.py CARGO_TOML LIB_NAME OUT.xml
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from xml.sax.saxutils import quoteattr


class ManifestError(Exception):
    """A missing or malformed entry of [package.metadata.android]."""


def version_code(version: str) -> int:
    """1.2.3 -> 10203: grows with every release, as Android requires to update."""
    parts = version.split("-", 1)[0].split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ManifestError(f"version {version!r} is not MAJOR.MINOR.PATCH")
    major, minor, patch = (int(p) for p in parts)
    if minor > 99 or patch > 99:
        raise ManifestError(f"version {version!r}: minor and patch must stay below 100")
    return major * 10000 + minor * 100 + patch


def render(cargo: dict, lib_name: str) -> str:
    package = cargo.get("package", {})
    meta = package.get("metadata", {}).get("android")
    if not isinstance(meta, dict):
        raise ManifestError("Cargo.toml has no [package.metadata.android]")
    version = package.get("version")
    if isinstance(version, dict):  # version.workspace = true
        version = cargo.get("workspace", {}).get("package", {}).get("version")
    if not isinstance(version, str):
        raise ManifestError("no package version")
    try:
        app_id = meta["package"]
        sdk = meta["sdk"]
        min_sdk, target_sdk = int(sdk["min_sdk_version"]), int(sdk["target_sdk_version"])
        app = meta["application"]
        label, icon = app["label"], app["icon"]
    except (KeyError, TypeError, ValueError) as error:
        raise ManifestError(f"[package.metadata.android] lacks or mistypes {error}") from None
    activity = app.get("activity", {})
    q = quoteattr
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android"',
        f"    package={q(app_id)}",
        f'    android:versionCode="{version_code(version)}"',
        f"    android:versionName={q(version)}>",
        f'  <uses-sdk android:minSdkVersion="{min_sdk}" android:targetSdkVersion="{target_sdk}"/>',
    ]
    for permission in meta.get("uses_permission", []):
        lines.append(f"  <uses-permission android:name={q(permission['name'])}/>")
    lines += [
        # No Java code: the system's NativeActivity loads lib<lib_name>.so.
        f"  <application android:label={q(label)} android:icon={q(icon)}",
        *([f"      android:theme={q(app['theme'])}"] if "theme" in app else []),
        '      android:hasCode="false" android:allowBackup="true">',
        '    <activity android:name="android.app.NativeActivity" android:exported="true"',
        f"        android:label={q(label)}",
    ]
    if "orientation" in activity:
        lines.append(f"        android:screenOrientation={q(activity['orientation'])}")
    if "config_changes" in activity:
        lines.append(f"        android:configChanges={q(activity['config_changes'])}")
    if "launch_mode" in activity:
        lines.append(f"        android:launchMode={q(activity['launch_mode'])}")
    lines += [
        "        >",
        f'      <meta-data android:name="android.app.lib_name" android:value={q(lib_name)}/>',
        "      <intent-filter>",
        '        <action android:name="android.intent.action.MAIN"/>',
        '        <category android:name="android.intent.category.LAUNCHER"/>',
        "      </intent-filter>",
        "    </activity>",
        "  </application>",
        "</manifest>",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    cargo_toml, lib_name, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    try:
        cargo = tomllib.loads(cargo_toml.read_text(encoding="utf-8"))
        out.write_text(render(cargo, lib_name), encoding="utf-8")
    except (OSError, tomllib.TOMLDecodeError, ManifestError) as error:
        print(f"error: AndroidManifest.xml from {cargo_toml}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
