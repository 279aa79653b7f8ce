#!/usr/bin/env bash
# Builds the signed Android APK of junqi (aarch64, Android 8.0 / API 26 and later) on a
# Debian/Ubuntu machine, with no Android NDK or SDK: Debian's clang/lld link against a
# sysroot the project makes from its own symbol data (android/), Debian's aapt, zipalign
# and apksigner package and sign. See docs/android.md.
#
#   scripts/android-apk.sh
#
# Installs what it needs when missing (apt-get, rustup), then prints the APK's path. On a
# terminal each step says which step of how many it is and the time so far (scripts/steps.sh).
# Environment:
#   CARGO_TARGET_DIR       where to build (default: target/ in the clone)
#   JUNQI_KEYSTORE         sign with this release keystore instead of the debug key
#                          in android/debug.keystore (never commit a release key)
#   JUNQI_KEYSTORE_PASS    its password (default: asked by apksigner)
#   JUNQI_KEY_ALIAS        its key's alias (default: the keystore's only key)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

API=26
TRIPLE=aarch64-linux-android
LIB_NAME=junqi
CLANG=clang-19
FRAMEWORK_RES=/usr/share/android-framework-res/framework-res.apk

die() { echo "error: $*" >&2; exit 1; }
# shellcheck source=scripts/steps.sh
. scripts/steps.sh

# --- 1. Tools, from the package registries -----------------------------------------
# command -> the Debian package that provides it
declare -A PROVIDER=(
  [clang-19]=clang-19 [ld.lld-19]=lld-19 [llvm-readelf-19]=llvm-19 [llvm-ar-19]=llvm-19
  [llvm-strip-19]=llvm-19 [aapt]=aapt [zipalign]=zipalign [apksigner]=apksigner
  [keytool]=default-jre-headless [python3]=python3
)
missing=()
for tool in "${!PROVIDER[@]}"; do
  command -v "$tool" >/dev/null || missing+=("${PROVIDER[$tool]}")
done
[ -f "$FRAMEWORK_RES" ] || missing+=(android-framework-res)
need_target=0
rustup target list --installed 2>/dev/null | grep -qx "$TRIPLE" || need_target=1
# The steps below: sysroot, library, symbol check, packaging, signing, four checks; and
# the installations, when needed.
STEPS_TOTAL=$((9 + need_target))
[ ${#missing[@]} -gt 0 ] && STEPS_TOTAL=$((STEPS_TOTAL + 1))
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  command -v apt-get >/dev/null ||
    die "missing tools; install the Debian/Ubuntu packages ${missing[*]} or their equivalents"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  step "installing ${missing[*]}"
  $sudo apt-get update -qq ||
    die "apt-get update failed (network or sources?); then install: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed; clang-19/lld-19 need Debian 12 or Ubuntu 24.04 or later"
fi
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
  die "python3 3.11 or later is needed (tomllib)"
command -v cargo >/dev/null || die "cargo is required: https://rustup.rs"
if [ "$need_target" = 1 ]; then
  command -v rustup >/dev/null || die "rustup is needed to add the Rust target $TRIPLE"
  step "adding the Rust target $TRIPLE"
  rustup target add "$TRIPLE" || die "rustup target add $TRIPLE failed"
fi

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
export CARGO_TARGET_DIR="$TARGET_DIR"
WORK="$TARGET_DIR/android"
SYSROOT="$WORK/sysroot"
mkdir -p "$WORK"

# --- 2. The sysroot: stubs of the system libraries, startup objects, unwinder ---------
step "sysroot (API $API) in $SYSROOT"
LIBDIR=$(python3 android/sysroot.py --clang "$CLANG" --api "$API" --out "$SYSROOT")
# rustc's Android target links with -lunwind: the `unwinding` crate as a static library.
(cd android/unwind && cargo build --quiet --release --target "$TRIPLE") ||
  die "building the unwinder (android/unwind) failed"
cp "$TARGET_DIR/$TRIPLE/release/libunwind.a" "$SYSROOT/usr/lib/$TRIPLE/libunwind.a"

# --- 3. The app as a shared library --------------------------------------------------
export CARGO_TARGET_AARCH64_LINUX_ANDROID_LINKER="$CLANG"
export CARGO_TARGET_AARCH64_LINUX_ANDROID_RUSTFLAGS="-C link-arg=--target=$TRIPLE$API -C link-arg=--sysroot=$SYSROOT -C link-arg=-fuse-ld=lld"
export CC_aarch64_linux_android="$CLANG" AR_aarch64_linux_android=llvm-ar-19
# C in dependencies: only ring's (under rustls). No registry has bionic's headers, so it
# is compiled the way ring supports for targets without a C library's headers; blake3
# uses its pure-Rust code on Android (Cargo.toml) instead of its NEON C.
export CFLAGS_aarch64_linux_android="--target=$TRIPLE$API -nostdlibinc -DRING_CORE_NOSTDLIBINC"
step "building lib$LIB_NAME.so (release, $TRIPLE, --features android)"
cargo rustc --release --lib --crate-type cdylib --target "$TRIPLE" --features android ||
  die "the Android build of the app failed"
LIB="$TARGET_DIR/$TRIPLE/release/lib$LIB_NAME.so"

# --- 4. Only what a phone has --------------------------------------------------------
step "symbol check (API $API)"
python3 android/symcheck.py --api "$API" "$LIB" ||
  die "lib$LIB_NAME.so needs what an Android $API device does not have (see above)"

# --- 5. The APK ----------------------------------------------------------------------
STAGE="$WORK/apk"
rm -rf "$STAGE"; mkdir -p "$STAGE/lib/arm64-v8a"
llvm-strip-19 --strip-debug -o "$STAGE/lib/arm64-v8a/lib$LIB_NAME.so" "$LIB"
python3 android/manifest.py Cargo.toml "$LIB_NAME" "$STAGE/AndroidManifest.xml" ||
  die "writing AndroidManifest.xml failed"
UNSIGNED="$WORK/$LIB_NAME-unsigned.apk"; ALIGNED="$WORK/$LIB_NAME-aligned.apk"
APK="$WORK/$LIB_NAME.apk"
rm -f "$UNSIGNED" "$ALIGNED" "$APK"
step "packaging"
aapt package -f -M "$STAGE/AndroidManifest.xml" -S assets/icon/android/res -A assets \
  -I "$FRAMEWORK_RES" -F "$UNSIGNED" >/dev/null || die "aapt package failed"
(cd "$STAGE" && aapt add "$UNSIGNED" "lib/arm64-v8a/lib$LIB_NAME.so" >/dev/null) ||
  die "aapt add (the library) failed"
zipalign -f -p 4 "$UNSIGNED" "$ALIGNED" || die "zipalign failed"
if [ -n "${JUNQI_KEYSTORE:-}" ]; then
  [ -f "$JUNQI_KEYSTORE" ] || die "JUNQI_KEYSTORE=$JUNQI_KEYSTORE: no such file"
  step "signing with the release key $JUNQI_KEYSTORE"
  sign=(--ks "$JUNQI_KEYSTORE")
  [ -n "${JUNQI_KEYSTORE_PASS:-}" ] && sign+=(--ks-pass env:JUNQI_KEYSTORE_PASS)
  [ -n "${JUNQI_KEY_ALIAS:-}" ] && sign+=(--ks-key-alias "$JUNQI_KEY_ALIAS")
else
  # The project's debug key, so that each new debug APK installs over the last.
  step "signing with the debug key android/debug.keystore"
  sign=(--ks android/debug.keystore --ks-pass pass:android --key-pass pass:android
    --ks-key-alias androiddebugkey)
fi
apksigner sign "${sign[@]}" --out "$APK" "$ALIGNED" || die "apksigner sign failed"
rm -f "$UNSIGNED" "$ALIGNED" "$APK.idsig"

# --- 6. Verification -----------------------------------------------------------------
step "apksigner verify --verbose"
apksigner verify --verbose "$APK" || die "the APK's signature does not verify"
step "zipalign -c -p 4"
zipalign -c -p 4 "$APK" && echo "aligned" || die "the APK is not aligned"
step "aapt dump badging"
BADGING=$(aapt dump badging "$APK") || die "aapt cannot read the APK"
echo "$BADGING" | grep -E "^(package|sdkVersion|targetSdkVersion|uses-permission|application:|launchable-activity|native-code)"
expect() { grep -qF -- "$1" <<<"$BADGING" || die "aapt dump badging lacks: $1"; }
expect "application-label:'军棋'"
expect "icon='res/mipmap-"
expect "sdkVersion:'$API'"
for p in INTERNET ACCESS_NETWORK_STATE ACCESS_WIFI_STATE CHANGE_WIFI_MULTICAST_STATE; do
  expect "uses-permission: name='android.permission.$p'"
done
expect "launchable-activity: name='android.app.NativeActivity'"
expect "native-code: 'arm64-v8a'"
aapt dump xmltree "$APK" AndroidManifest.xml | grep -A1 'android.app.lib_name' |
  grep -q "\"$LIB_NAME\"" || die "the manifest does not name lib$LIB_NAME.so for NativeActivity"
echo "NativeActivity loads lib$LIB_NAME.so (meta-data android.app.lib_name=$LIB_NAME)"
step "readelf -d (NEEDED, TEXTREL) and machine"
llvm-readelf-19 -h "$LIB" | grep -E "Class|Machine"
llvm-readelf-19 -d "$LIB" | grep -E "NEEDED|SONAME|FLAGS|TEXTREL" || true
llvm-readelf-19 -d "$LIB" | grep -q TEXTREL && die "lib$LIB_NAME.so has text relocations"

SIZE=$(du -h "$APK" | cut -f1)
steps_done
echo
echo "APK ($SIZE): $APK"
echo "install on a device (USB debugging on): adb install -r \"$APK\""
