/* Structs of bitfields with known values, passed to func and func2. */
struct Foo { unsigned int a : 4, b : 8, c : 3, d : 1, e : 16; };
struct Bar { unsigned short a : 4, b : 8, c : 3, d : 1; unsigned int e : 9, f : 15, g : 1, h : 2, i : 5; };
__attribute__((noinline, used)) unsigned int func(struct Foo *foo) { return foo->b; }
__attribute__((noinline, used)) short func2(struct Bar *bar) { return bar->b; }
int main(void)
{
	struct Foo foo = { .a = 1, .b = 2, .c = 5, .d = 0, .e = 65535 };
	struct Bar bar = { .a = 1, .b = 217, .c = 5, .d = 1, .e = 500, .f = 31117, .g = 1, .h = 2, .i = 27 };
	func(&foo);
	func2(&bar);
	return 0;
}
