// The object linked last into every Android shared library. Bionic's loader needs
// nothing from it on AArch64; it exists because the compiler driver links it, and it
// marks the stack non-executable like every other object of the library.
__attribute__((visibility("hidden"))) char junqi_crtend_so_marker;
