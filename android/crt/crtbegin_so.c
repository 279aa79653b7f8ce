// The startup object linked first into every Android shared library (the project's own;
// see docs/android.md). It gives the library its DSO handle, which `__cxa_atexit` and
// `__cxa_thread_atexit_impl` (Rust's thread-local destructors) are given to know whose
// destructors to run, and runs those destructors when the library is unloaded.
extern void __cxa_finalize(void *dso);

__attribute__((visibility("hidden"))) void *__dso_handle = &__dso_handle;

__attribute__((destructor, used, visibility("hidden"))) static void run_dso_destructors(void) {
  __cxa_finalize(&__dso_handle);
}
