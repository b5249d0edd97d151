/* Arrays inside structs handed to uprobe'd functions: x = 1 2 3 4,
 * y = {5 6}{7 8}, pointers to x's elements, and a reversed copy 4 3 2 1. */
#define KEEP __attribute__((noinline, used))
struct A { int x[4]; };
struct B { int y[2][2]; };
struct C { int *z[4]; };

KEEP void test_array(int *a) { __asm__ volatile("" : : "r"(a) : "memory"); }
KEEP void test_arrays(struct A *a, struct A *d) { __asm__ volatile("" : : "r"(a), "r"(d) : "memory"); }
KEEP void test_struct(struct A *a, struct B *b) { __asm__ volatile("" : : "r"(a), "r"(b) : "memory"); }
KEEP void test_ptr_array(struct C *c) { __asm__ volatile("" : : "r"(c) : "memory"); }

int main(void)
{
	struct A a = { { 1, 2, 3, 4 } }, d = { { 4, 3, 2, 1 } };
	struct B b = { { { 5, 6 }, { 7, 8 } } };
	struct C c = { { &a.x[0], &a.x[1], &a.x[2], &a.x[3] } };
	test_struct(&a, &b);
	test_array(a.x);
	test_ptr_array(&c);
	test_arrays(&a, &d);
	return 0;
}
