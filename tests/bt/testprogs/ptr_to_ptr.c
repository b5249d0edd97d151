/* function() gets a pointer to a pointer to { a = 123, b = "hello" }. */
struct Foo { int a; char b[10]; };

__attribute__((noinline, used)) int function(struct Foo **f)
{
	return (*f)->a;
}

int main(void)
{
	struct Foo foo = { 123, "hello" }, *p = &foo;

	return function(&p) - 123;
}
