/* print() receives two strings on the stack: "hello" and "world". */
__attribute__((noinline, used)) void print(char *a, char *b) { __asm__ volatile("" : : "r"(a), "r"(b) : "memory"); }
int main(void)
{
	char a[] = "hello", b[] = "world";
	print(a, b);
	return 0;
}
