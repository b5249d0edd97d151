/* Calls tick() of testlibs/libusdt_tp.so (which holds the USDT probes) in
 * a busy loop. Any argument: exit 0 (built with sys/sdt.h). */
long tick(void);

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return 0;
	for (;;)
		tick();
}
