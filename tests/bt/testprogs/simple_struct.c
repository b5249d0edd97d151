/* func() receives a pointer to { m = 2, n = 3 }. */
struct Foo { int m; int n; };
__attribute__((noinline, used)) int func(struct Foo *foo) { return foo->m; }
int main(void)
{
	struct Foo foo = { 2, 3 };
	return func(&foo) - 2;
}
