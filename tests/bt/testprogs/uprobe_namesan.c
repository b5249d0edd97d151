/* A function whose name holds a '$', which probe names must cope with. */
__attribute__((noinline, used)) int fn$(void) { return 0; }
int main(void) { return fn$(); }
