/* libsimple.so: one exported function, fun(), in a library without the
 * executable bit. */
__attribute__((visibility("default"))) void fun(void)
{
}
