// symbols e2e helper (C++): spins for SECONDS (default 3) in
// main -> cbxns::Spinner<int>::run() const -> cbxns::Vec::operator+(...),
// names with a namespace, a class template, a const method and an
// operator.  Built -O0 with frame pointers.  Prints its pid first.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace cbxns {
struct Vec {
	long x;
	__attribute__((noinline)) Vec operator+(const Vec &o) const
	{
		Vec r{ x };
		for (int i = 0; i < 100000; i++)
			r.x += o.x * i;
		return r;
	}
};

template <typename T> struct Spinner {
	T seed;
	__attribute__((noinline)) long run(double end) const;
};

static double now()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

template <typename T> long Spinner<T>::run(double end) const
{
	Vec acc{ seed };
	while (now() < end)
		acc = acc + Vec{ 3 };
	return acc.x;
}
} // namespace cbxns

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0;
	cbxns::Spinner<int> s{ 1 };

	printf("%d\n", (int)getpid());
	fflush(stdout);
	return (int)(s.run(cbxns::now() + secs) & 0);
}
