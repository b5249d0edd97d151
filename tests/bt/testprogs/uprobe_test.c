/* Globals with known bit patterns and two probed functions, called after a
 * one second pause so a tracer started with it has time to attach. */
#include <unistd.h>
int GLOBAL_A = 0x55555555;
int GLOBAL_B = (int)0x88888888;
int GLOBAL_C = 0x33333333;
char GLOBAL_D = 8;
struct Foo { int a; char b[10]; int c[3]; };
__attribute__((noinline, used)) int function1(int *n, char c) { (void)c; return *n; }
__attribute__((noinline, used)) struct Foo *function2(struct Foo *one, struct Foo *two) { (void)two; return one; }
int main(void)
{
	int n = 13;
	struct Foo one = { 123, "hello", { 1, 2, 3 } }, two = { 456, "world", { 4, 5, 6 } };
	usleep(1000000);
	function1(&n, 'x');
	function2(&one, &two);
	return 0;
}
