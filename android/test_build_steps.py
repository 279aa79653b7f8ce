"""The Android build script's step lines (scripts/steps.sh, scripts/android-apk.sh): on a
terminal "== [k/N] WHAT   m:ss elapsed" with k running from 1 to N, plain "== WHAT" and
nothing more when standard error is not a terminal. The whole script is run with every tool
it calls replaced by a stub (no compiler, no cargo build, a second), so the count N is
checked against the steps the script really takes. Run by scripts/test.sh:
    python3 -m unittest discover -s android -p 'test_*.py'
"""

import os
import pty
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NUMBERED = re.compile(r"^== \[(\d+)/(\d+)\] (.+)   (\d+:\d\d(?::\d\d)?) elapsed$")


def run(args, *, terminal, env=None, cwd=ROOT):
    """Runs `args`; returns (exit status, standard output, standard error), standard error
    a pseudo-terminal when `terminal`, else a pipe."""
    if not terminal:
        p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    with subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=slave,
                          stdin=subprocess.DEVNULL) as p:
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: every writer is gone
                break
            if not chunk:
                break
            err += chunk
        out = p.stdout.read()
        p.wait(timeout=120)
    os.close(master)
    return p.returncode, out.decode(), err.decode().replace("\r\n", "\n")


def steps(body, terminal):
    script = f". scripts/steps.sh\n{body}\n"
    return run(["bash", "-c", script], terminal=terminal)


class StepLines(unittest.TestCase):
    BODY = 'STEPS_TOTAL=3; SECONDS=125; step first; step "second one"; step third; steps_done'

    def test_off_a_terminal_the_lines_are_plain(self):
        code, out, err = steps(self.BODY, terminal=False)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "== first\n== second one\n== third\n")
        self.assertEqual(out, "")

    def test_on_a_terminal_each_says_which_of_how_many_and_the_time(self):
        code, _, err = steps(self.BODY, terminal=True)
        self.assertEqual(code, 0, err)
        lines = err.splitlines()
        self.assertEqual(len(lines), 4, err)
        for k, (line, what) in enumerate(zip(lines, ["first", "second one", "third"]), 1):
            m = NUMBERED.match(line)
            self.assertIsNotNone(m, line)
            self.assertEqual((int(m[1]), int(m[2]), m[3]), (k, 3, what))
            self.assertRegex(m[4], r"^2:0\d$")
        self.assertRegex(lines[3], r"^== done: 3 steps in 2:0\d$")

    def test_hours_are_written_out(self):
        _, _, err = steps("STEPS_TOTAL=1; SECONDS=3725; step long", terminal=True)
        self.assertRegex(err.strip(), r"^== \[1/1\] long   1:02:0\d elapsed$")


STUBS = {
    # The tools a Debian machine provides: present, so nothing is installed.
    **{name: "exit 0" for name in ["clang-19", "ld.lld-19", "llvm-ar-19", "keytool"]},
    "apt-get": 'echo "apt-get $*" >> "$STUB_LOG"',
    "rustup": """
case "$*" in
  "target list --installed") [ -n "$STUB_TARGET" ] && echo aarch64-linux-android ;;
  *) echo "rustup $*" >> "$STUB_LOG" ;;
esac""",
    # Both cargo builds: the unwinder and the app's library, as empty files.
    "cargo": """
d="$CARGO_TARGET_DIR/aarch64-linux-android/release"; mkdir -p "$d"
touch "$d/libunwind.a" "$d/libjunqi.so"; echo "cargo $*" >> "$STUB_LOG" """,
    "python3": """
case "$1" in
  android/sysroot.py)
    while [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done
    mkdir -p "$out/usr/lib/aarch64-linux-android"; echo "$out/usr/lib" ;;
  android/symcheck.py) ;;
  *) exec "$REAL_PYTHON" "$@" ;;
esac""",
    "llvm-strip-19": 'touch "$3"',
    "llvm-readelf-19": 'echo "  Machine: AArch64"; echo " 0x1 (NEEDED) [libc.so]"',
    "aapt": """
case "$1 $2" in
  "package -f") while [ $# -gt 0 ]; do [ "$1" = -F ] && touch "$2"; shift; done ;;
  "dump badging") cat <<'EOF'
package: name='org.junqi'
sdkVersion:'26'
application-label:'军棋'
application: label='军棋' icon='res/mipmap-mdpi/ic_launcher.png'
uses-permission: name='android.permission.INTERNET'
uses-permission: name='android.permission.ACCESS_NETWORK_STATE'
uses-permission: name='android.permission.ACCESS_WIFI_STATE'
uses-permission: name='android.permission.CHANGE_WIFI_MULTICAST_STATE'
launchable-activity: name='android.app.NativeActivity'
native-code: 'arm64-v8a'
EOF
  ;;
  "dump xmltree") printf '%s\\n' 'A: android:name="android.app.lib_name"' 'A: android:value="junqi"' ;;
esac""",
    "zipalign": '[ "$1" = -c ] || cp "$4" "$5"',
    "apksigner": """
if [ "$1" = sign ]; then
  while [ $# -gt 1 ]; do [ "$1" = --out ] && out=$2; shift; done; cp "$1" "$out"
fi""",
}


class AndroidScriptSteps(unittest.TestCase):
    """scripts/android-apk.sh with stubs for every tool it runs."""

    def build(self, terminal, target_installed):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            bin_dir = tmp / "bin"
            bin_dir.mkdir()
            for name, body in STUBS.items():
                stub = bin_dir / name
                stub.write_text(f"#!/bin/bash\n{body}\n")
                stub.chmod(0o755)
            env = {
                "PATH": f"{bin_dir}:/usr/bin:/bin",
                "HOME": str(tmp),
                "CARGO_TARGET_DIR": str(tmp / "target"),
                "REAL_PYTHON": sys.executable,
                "STUB_LOG": str(tmp / "log"),
                "STUB_TARGET": "1" if target_installed else "",
            }
            code, out, err = run(["bash", "scripts/android-apk.sh"], terminal=terminal, env=env)
            log = (tmp / "log").read_text() if (tmp / "log").exists() else ""
            return code, out, err, log

    def test_on_a_terminal_the_steps_count_up_to_their_total(self):
        for target_installed in [True, False]:
            code, out, err, log = self.build(terminal=True, target_installed=target_installed)
            self.assertEqual(code, 0, err)
            self.assertIn("APK (", out)
            numbered = [NUMBERED.match(line) for line in err.splitlines()
                        if line.startswith("== [")]
            self.assertTrue(all(numbered), err)
            totals = {int(m[2]) for m in numbered}
            self.assertEqual(totals, {len(numbered)}, err)
            self.assertEqual([int(m[1]) for m in numbered], list(range(1, len(numbered) + 1)))
            whats = [m[3] for m in numbered]
            self.assertEqual(any(w.startswith("adding the Rust target") for w in whats),
                             not target_installed, err)
            self.assertEqual(len(numbered), 9 if target_installed else 10, err)
            self.assertTrue(whats[-1].startswith("readelf"), whats)
            self.assertRegex(err, rf"\n== done: {len(numbered)} steps in \d+:\d\d\n")
            self.assertEqual(log.count("cargo "), 2, log)

    def test_off_a_terminal_nothing_is_added(self):
        code, out, err, _ = self.build(terminal=False, target_installed=True)
        self.assertEqual(code, 0, err)
        self.assertNotIn("== [", err)
        self.assertNotIn("done:", err)
        step_lines = [line for line in err.splitlines() if line.startswith("==")]
        starts = ["sysroot (API 26) in ", "building libjunqi.so (release", "symbol check (API 26)",
                  "packaging", "signing with the debug key", "apksigner verify --verbose",
                  "zipalign -c -p 4", "aapt dump badging", "readelf -d"]
        self.assertEqual(len(step_lines), len(starts), err)
        for line, start in zip(step_lines, starts):
            self.assertTrue(line.startswith("== " + start), (line, start))

if __name__ == "__main__":
    unittest.main()
