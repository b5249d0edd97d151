/* Ten int arguments, so the last ones travel on the stack (sarg0, sarg1...). */
#define A(x) int x __attribute__((unused))
__attribute__((noinline, used)) void too_many_args(A(a), A(b), A(c), A(d), A(e), A(f), A(g), A(h), A(i), A(j)) {}
int main(void)
{
	too_many_args(0, 1, 2, 4, 8, 16, 32, 64, 128, 256);
	return 0;
}
