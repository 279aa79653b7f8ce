"""Unit tests of the Android build's tools: the symbol data, the stubs' version scripts, the
symbol check (on fixtures, no compiler needed) and the manifest. Run by scripts/test.sh:
    python3 -m unittest discover -s android -p 'test_*.py'
"""

import tempfile
import tomllib
import unittest
from pathlib import Path

import abi_data
import manifest
import symcheck
import sysroot

ROOT = Path(__file__).resolve().parent.parent


def facts(undefined, needed=("libc.so",), machine="AArch64", textrel=False):
    return symcheck.ElfFacts(machine=machine, needed=list(needed), textrel=textrel,
                             undefined=[symcheck.Undefined(*u) for u in undefined])


class SymbolData(unittest.TestCase):
    def setUp(self):
        self.libs = abi_data.load_all()

    def test_every_platform_library_is_described(self):
        self.assertEqual(set(self.libs), {"libc.so", "libm.so", "libdl.so", "liblog.so",
                                          "libandroid.so", "libaaudio.so"})
        self.assertGreater(len(self.libs["libc.so"].symbols), 1000)

    def test_api_levels_gate_symbols(self):
        libc = self.libs["libc.so"]
        self.assertIsNotNone(libc.lookup("pthread_getname_np", 26))
        self.assertIsNone(libc.lookup("pthread_getname_np", 25))
        self.assertIsNone(libc.lookup("getrandom", 26), "API 28")
        self.assertEqual(libc.lookup("getifaddrs", 26).node, "LIBC_N")
        self.assertTrue(libc.lookup("environ", 26).is_var)

    def test_malformed_lines_are_refused_with_their_place(self):
        cases = ["%soname x.so\nfoo\n", "%soname x.so\n[A]\nfoo api=x\n",
                 "%soname x.so\n[A]\nfoo\nfoo\n", "%soname x.so\n[B : A]\n", "[A]\nfoo\n"]
        for text in cases:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "x.txt"
                path.write_text(text)
                with self.assertRaises(abi_data.AbiDataError, msg=text) as caught:
                    abi_data.parse(path)
                self.assertIn("x.txt", str(caught.exception))

    def test_version_scripts_chain_nodes_and_hide_the_rest(self):
        script = sysroot.version_script(self.libs["libc.so"], 26)
        self.assertIn("LIBC_N {", script)
        self.assertIn("} LIBC;", script)
        self.assertIn("} LIBC_N;", script)
        self.assertIn("local:\n    *;", script)
        self.assertIn("    pthread_getname_np;", script)
        self.assertNotIn("pthread_getname_np", sysroot.version_script(self.libs["libc.so"], 24))
        plain = sysroot.version_script(self.libs["liblog.so"], 26)
        self.assertTrue(plain.startswith("{\n"), plain)


class SymbolCheck(unittest.TestCase):
    def setUp(self):
        self.libs = abi_data.load_all()

    def run_check(self, f, api=26, bundled=()):
        return symcheck.check(f, self.libs, api, set(bundled))

    def test_a_library_needing_only_the_platform_passes(self):
        errors, notes = self.run_check(facts([("memcpy", "LIBC", False),
                                              ("__android_log_write", None, False)],
                                             needed=("libc.so", "liblog.so")))
        self.assertEqual((errors, notes), ([], []))

    def test_symbols_missing_at_the_level_fail_unless_weak(self):
        errors, _ = self.run_check(facts([("pthread_getname_np", "LIBC_O", False)]), api=24)
        self.assertEqual(len(errors), 1)
        errors, notes = self.run_check(facts([("getrandom", None, True)]))
        self.assertEqual(errors, [])
        self.assertEqual(len(notes), 1)
        errors, _ = self.run_check(facts([("getrandom", None, False)]))
        self.assertEqual(len(errors), 1)

    def test_a_symbol_must_come_from_a_needed_library_in_its_version(self):
        errors, _ = self.run_check(facts([("__android_log_write", None, False)]))
        self.assertEqual(len(errors), 1, "liblog not NEEDED")
        errors, _ = self.run_check(facts([("memcpy", "LIBC_N", False)]))
        self.assertEqual(len(errors), 1, "wrong version node")

    def test_foreign_libraries_text_relocations_and_other_machines_fail(self):
        errors, _ = self.run_check(facts([], needed=("libc.so", "libc++_shared.so")))
        self.assertEqual(len(errors), 1)
        errors, _ = self.run_check(facts([], needed=("libc.so", "libc++_shared.so")),
                                   bundled=["libc++_shared.so"])
        self.assertEqual(errors, [])
        errors, _ = self.run_check(facts([], machine="Advanced Micro Devices X86-64",
                                         textrel=True))
        self.assertEqual(len(errors), 2)

    def test_readelf_output_is_read(self):
        text = """ELF Header:
  Class:                             ELF64
  Machine:                           AArch64
Dynamic section at offset 0x1 contains 3 entries:
  Tag                Type     Name/Value
  0x0000000000000001 (NEEDED) Shared library: [libc.so]
  0x0000000000000001 (NEEDED) Shared library: [libdl.so]
Symbol table '.dynsym' contains 4 entries:
   Num:    Value          Size Type    Bind   Vis       Ndx Name
     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT   UND 
     1: 0000000000000000     0 FUNC    GLOBAL DEFAULT   UND memcpy@LIBC
     2: 0000000000000000     0 FUNC    WEAK   DEFAULT   UND getrandom
     3: 0000000000001000    16 FUNC    GLOBAL DEFAULT    12 ANativeActivity_onCreate
"""
        f = symcheck.parse_readelf(text)
        self.assertEqual(f.machine, "AArch64")
        self.assertEqual(f.needed, ["libc.so", "libdl.so"])
        self.assertFalse(f.textrel)
        self.assertEqual(f.undefined, [symcheck.Undefined("memcpy", "LIBC", False),
                                       symcheck.Undefined("getrandom", None, True)])


class Manifest(unittest.TestCase):
    def test_the_projects_manifest_names_the_app_and_its_library(self):
        cargo = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
        xml = manifest.render(cargo, "junqi")
        for part in ['android:label="军棋"', 'android:minSdkVersion="26"',
                     'android:name="android.app.NativeActivity"', 'android:value="junqi"',
                     'android:hasCode="false"', 'android:screenOrientation="portrait"',
                     "android.permission.CHANGE_WIFI_MULTICAST_STATE", "android:theme="]:
            self.assertIn(part, xml)

    def test_version_codes_grow_and_bad_versions_are_refused(self):
        self.assertLess(manifest.version_code("0.1.0"), manifest.version_code("0.1.1"))
        self.assertLess(manifest.version_code("0.9.99"), manifest.version_code("1.0.0"))
        for bad in ["1.0", "1.100.0", "x.y.z"]:
            with self.assertRaises(manifest.ManifestError):
                manifest.version_code(bad)
        with self.assertRaises(manifest.ManifestError):
            manifest.render({"package": {"version": "0.1.0"}}, "junqi")


if __name__ == "__main__":
    unittest.main()
