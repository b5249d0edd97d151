/* function1 returns each of -120..100 in turn; main returns -100. */
__attribute__((noinline, used)) int function1(int x) { __asm__ volatile("" : "+r"(x)); return x; }
int main(void)
{
	for (int x = -120; x <= 100; x++)
		function1(x);
	return -100;
}
