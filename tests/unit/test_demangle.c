/* demangle(): a table of real mangled names (g++ 12 and libstdc++
 * symbols, rustc 1.95 legacy and v0) against what c++filt prints for C++
 * and rustc-demangle's alternate form for Rust; names left raw; every
 * prefix of every name, every output size and hostile shapes (deep
 * nesting, substitution loops and bombs), run under ASan+UBSan: a NULL or
 * a NUL-terminated string within the buffer, never a crash or a hang. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/demangle.h"
#include "t.h"

struct pair {
	const char *mangled, *want;
};

/* expectations from c++filt (binutils 2.40) */
static const struct pair cpp[] = {
	{ "_ZN5cbxns7SpinnerIiE3runEv",
	  "cbxns::Spinner<int>::run()" },
	{ "_ZNK5cbxns7SpinnerIiE3runEv",
	  "cbxns::Spinner<int>::run() const" },
	{ "_ZNK5cbxns3VecplERKS0_",
	  "cbxns::Vec::operator+(cbxns::Vec const&) const" },
	{ "_ZNK5cbxns3VeceqERKS0_",
	  "cbxns::Vec::operator==(cbxns::Vec const&) const" },
	{ "_ZN5cbxns3VecclEi",
	  "cbxns::Vec::operator()(int)" },
	{ "_ZN5cbxns3VecixEl",
	  "cbxns::Vec::operator[](long)" },
	{ "_ZNK5cbxns3VeccvlEv",
	  "cbxns::Vec::operator long() const" },
	{ "_ZN5cbxns4convIllEET_T0_PFS1_S2_E",
	  "long cbxns::conv<long, long>(long, long (*)(long))" },
	{ "_ZN5cbxns5fixedILi7EEEiv",
	  "int cbxns::fixed<7>()" },
	{ "_ZN5cbxns12_GLOBAL__N_16hiddenEi",
	  "cbxns::(anonymous namespace)::hidden(int)" },
	{ "_ZN5cbxns5takesEPFviEMNS_3VecEiMS2_FiiEPKPKcRA4_i",
	  "cbxns::takes(void (*)(int), int cbxns::Vec::*, int (cbxns::Vec::*)(int), char const* const*, int (&) [4])" },
	{ "_ZN5cbxns4nameERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERSt6vectorIiSaIiEESt3mapIiS5_St4lessIiESaISt4pairIKiS5_EEE",
	  "cbxns::name(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, std::vector<int, std::allocator<int> >&, std::map<int, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::less<int>, std::allocator<std::pair<int const, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > > >)" },
	{ "_ZThn8_N5cbxns7Derived1gEv",
	  "non-virtual thunk to cbxns::Derived::g()" },
	{ "_ZTVN5cbxns7DerivedE",
	  "vtable for cbxns::Derived" },
	{ "_ZTIN5cbxns4BaseE",
	  "typeinfo for cbxns::Base" },
	{ "_ZN5cbxns4packIJidcEEEiDpT_",
	  "int cbxns::pack<int, double, char>(int, double, char)" },
	{ "_ZN5cbxns4packIJEEEiDpT_",
	  "int cbxns::pack<>()" },
	{ "_ZN5cbxns4rrefEONSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt10unique_ptrIiSt14default_deleteIiEE",
	  "cbxns::rref(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&&, std::unique_ptr<int, std::default_delete<int> >)" },
	{ "_ZN5cbxns2sqIhEET_S1_",
	  "unsigned char cbxns::sq<unsigned char>(unsigned char)" },
	{ "_ZN5cbxns7SpinnerIiED1Ev",
	  "cbxns::Spinner<int>::~Spinner()" },
	{ "_ZN5cbxns7SpinnerIiEC2Ei",
	  "cbxns::Spinner<int>::Spinner(int)" },
	{ "_ZNK2ns5inner6MatrixmlERKS1_",
	  "ns::inner::Matrix::operator*(ns::inner::Matrix const&) const" },
	{ "_ZN2ns5inner6MatrixpLEd",
	  "ns::inner::Matrix::operator+=(double)" },
	{ "_ZN2ns5inner6MatrixnwEm",
	  "ns::inner::Matrix::operator new(unsigned long)" },
	{ "_ZN2ns5inner6MatrixdlEPv",
	  "ns::inner::Matrix::operator delete(void*)" },
	{ "_ZNK2ns5inner6MatrixngEv",
	  "ns::inner::Matrix::operator-() const" },
	{ "_ZN2ns5inner11volatile_fnEPViPVKcyawDsDinebs",
	  "ns::inner::volatile_fn(int volatile*, char const volatile*, unsigned long long, signed char, wchar_t, char16_t, char32_t, __int128, long double, bool, short)" },
	{ "_ZN2ns5inner7varargsEPKcz",
	  "ns::inner::varargs(char const*, ...)" },
	{ "_ZN2ns5inner5fnrefERFvvEPKPFiczE",
	  "ns::inner::fnref(void (&)(), int (* const*)(char, ...))" },
	{ "_ZNR2ns5inner1S3refEv",
	  "ns::inner::S::ref() &" },
	{ "_ZNO2ns5inner1S4rrefEv",
	  "ns::inner::S::rref() &&" },
	{ "_ZltIiEbRKN2ns5inner3ArrIT_Li3EEES6_",
	  "bool operator< <int>(ns::inner::Arr<int, 3> const&, ns::inner::Arr<int, 3> const&)" },
	{ "_ZNSt10unique_ptrIiSt14default_deleteIiEEC1IS1_vEEDn",
	  "std::unique_ptr<int, std::default_delete<int> >::unique_ptr<std::default_delete<int>, void>(decltype(nullptr))" },
	{ "_ZNSolsEl",
	  "std::basic_ostream<char, std::char_traits<char> >::operator<<(long)" },
	{ "_ZGTtNKSt13runtime_error4whatEv",
	  "transaction clone for std::runtime_error::what() const" },
	{ "_ZNSt15__uniq_ptr_dataIiSt14default_deleteIiELb1ELb1EECI1St15__uniq_ptr_implIiS1_EEv",
	  "std::__uniq_ptr_data<int, std::default_delete<int>, true, true>::__uniq_ptr_impl()" },
	{ "_ZSt12__get_helperILm1ESt14default_deleteIiEJEERT0_RSt11_Tuple_implIXT_EJS2_DpT1_EE",
	  "std::default_delete<int>& std::__get_helper<1ul, std::default_delete<int>>(std::_Tuple_impl<1ul, std::default_delete<int>>&)" },
	{ "_ZNSt11this_thread11__sleep_forENSt6chrono8durationIlSt5ratioILl1ELl1EEEENS1_IlS2_ILl1ELl1000000000EEEE",
	  "std::this_thread::__sleep_for(std::chrono::duration<long, std::ratio<1l, 1l> >, std::chrono::duration<long, std::ratio<1l, 1000000000l> >)" },
	{ "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4findEPKcmm",
	  "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::find(char const*, unsigned long, unsigned long) const" },
	{ "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
	  "std::basic_ostream<char, std::char_traits<char> >& std::endl<char, std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&)" },
	{ "_ZNKSt5ctypeIwE8do_widenEPKcS2_Pw",
	  "std::ctype<wchar_t>::do_widen(char const*, char const*, wchar_t*) const" },
	{ "_ZTv0_n24_NSt13basic_fstreamIcSt11char_traitsIcEED1Ev",
	  "virtual thunk to std::basic_fstream<char, std::char_traits<char> >::~basic_fstream()" },
	{ "_ZGVNSt7collateIcE2idE",
	  "guard variable for std::collate<char>::id" },
	{ "_ZNSt8ios_base4InitC1Ev",
	  "std::ios_base::Init::Init()" },
	{ "_ZSt7forwardIRZ4mainEUliE_EOT_RNSt16remove_referenceIS2_E4typeE",
	  "main::{lambda(int)#1}& std::forward<main::{lambda(int)#1}&>(std::remove_reference<main::{lambda(int)#1}&>::type&)" },
	{ "_ZN9__gnu_cxx5__ops14_Iter_comp_valIZ4mainEUliiE0_EC1EONS0_15_Iter_comp_iterIS2_EE",
	  "__gnu_cxx::__ops::_Iter_comp_val<main::{lambda(int, int)#2}>::_Iter_comp_val(__gnu_cxx::__ops::_Iter_comp_iter<main::{lambda(int, int)#2}>&&)" },
	{ "_ZN5cbxns3locEv.cold",
	  "cbxns::loc() [clone .cold]" },
	{ "_Z3fooi.constprop.0.isra.0",
	  "foo(int) [clone .constprop.0] [clone .isra.0]" },
	{ "_ZZN5cbxns3locEvE7counter",
	  "cbxns::loc()::counter" },
	{ "_ZNK2ns5inner3ArrIfLi3EE3sumIfEET_S4_",
	  "float ns::inner::Arr<float, 3>::sum<float>(float) const" },
	{ "_ZL11file_statici",
	  "file_static(int)" },
	{ "_ZN3FooC2ERKS_",
	  "Foo::Foo(Foo const&)" },
	{ "_Z1fIiEvT_",
	  "void f<int>(int)" },
	{ "_Z1fM1AKFvvE",
	  "f(void (A::*)() const)" },
	{ "_Z1fPA10_i",
	  "f(int (*) [10])" },
	{ "_ZN1AcvPFivEEv",
	  "A::operator int (*)()()" },
	{ "_Z1fDF16_",
	  "f(_Float16)" },
	{ "_ZdlPv",
	  "operator delete(void*)" },
	{ "_Znwm",
	  "operator new(unsigned long)" },
	{ "_ZN1A1fB5cxx11Ev",
	  "A::f[abi:cxx11]()" },
	{ "_ZZ1fvEN1S1gEv",
	  "f()::S::g()" },
	{ "_Z4funcIJiEEvDpOT_",
	  "void func<int>(int&&)" },
	{ "_ZN12_GLOBAL__N_11AC2Ev",
	  "(anonymous namespace)::A::A()" },
	{ "_ZZ4mainENKUlvE_clEv",
	  "main::{lambda()#1}::operator()() const" },
};

/* Rust: rustc-demangle's {:#} (no hash, no crate disambiguator) */
static const struct pair rust[] = {
	{ "_ZN1r4main17h086b0cfd890a8ea9E", "r::main" },
	{ "_ZN1r6shapes13Wrap$LT$T$GT$3get17h4d8eb35bc9af0382E", "r::shapes::Wrap<T>::get" },
	{ "_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$$u7d$$GT$17h0123456789abcdefE",
	  "core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>" },
	{ "_ZN3foo3bar17h0123456789abcdefE.llvm.123", "foo::bar" },
	{ "_RNvCs6GmmlP4bgsG_1r4main", "r::main" },
	{ "_RINvNtCs6GmmlP4bgsG_1r6shapes7generictKj3_EB4_", "r::shapes::generic::<u16, 3>" },
	{ "_RNvMs_NtCs6GmmlP4bgsG_1r6shapesINtB4_4WrapINtNtCslNYArtu3iFV_5alloc3vec3VechEE3getB6_",
	  "<r::shapes::Wrap<alloc::vec::Vec<u8>>>::get" },
	{ "_RNvXsa_NtCsgEmfK2I1SDS_4core5arrayAtj3_NtNtB7_3fmt5Debug3fmtCs6GmmlP4bgsG_1r",
	  "<[u16; 3] as core::fmt::Debug>::fmt" },
	{ "_RNvNCNKNvNtNtCsjrHSEGnQ3l9_3std2io5stdio14OUTPUT_CAPTURE0023___RUST_STD_INTERNAL_VAL",
	  "std::io::stdio::OUTPUT_CAPTURE::{K#0}::{closure#0}::__RUST_STD_INTERNAL_VAL" },
	{ "_RNSNvYNCNCNvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace10__print_fmts_00INtNtNtCsgEmfK2I1SDS_4core3ops8function6FnOnceTRNtNtNtBe_12backtrace_rs9symbolize6SymbolEE9call_once6vtableBe_",
	  "<std::sys::backtrace::_print_fmt::{closure#1}::{closure#0} as core::ops::function::FnOnce<(&std::backtrace_rs::symbolize::Symbol,)>>::call_once::{shim:vtable#0}" },
	{ "_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeINtNtCslNYArtu3iFV_5alloc5boxed3BoxDG0_INtNtNtB4_3ops8function2FnTRL1_INtNtCsjrHSEGnQ3l9_3std5panic13PanicHookInfoL0_EEEp6OutputuNtNtB4_6marker4SyncNtB2N_4SendEL_EEB1T_",
	  "core::ptr::drop_in_place::<alloc::boxed::Box<dyn for<'a, 'b> core::ops::function::Fn<(&'a std::panic::PanicHookInfo<'b>,), Output = ()> + core::marker::Sync + core::marker::Send>>" },
	{ "_RNvMs3_NtCslNYArtu3iFV_5alloc7raw_vecINtB5_6RawVecINtNtB7_5boxed3BoxDINtNtNtCsgEmfK2I1SDS_4core3ops8function5FnMutuEp6OutputINtNtB1c_6result6ResultuNtNtNtCsjrHSEGnQ3l9_3std2io5error5ErrorENtNtB1c_6marker4SyncNtB32_4SendEL_EE8grow_oneB2s_",
	  "<alloc::raw_vec::RawVec<alloc::boxed::Box<dyn core::ops::function::FnMut<(), Output = core::result::Result<(), std::io::error::Error>> + core::marker::Sync + core::marker::Send>>>::grow_one" },
	{ "_RNCNvCs1_1r4mains_0", "r::main::{closure#1}" },
};

/* Not demangled (printed raw by the caller): malformed, or constructs not
 * handled. */
static const char *const raw[] = {
	"main", "_Z", "_ZN", "_R", "_Z1fS_", "_Z1fT_", "_ZN1C1Ev",
	"_Z1fIXsr1A1bEEvv" /* expressions beyond a parameter, literal or name */, "_Z3fooi.", "_Z3fooi\001", "_Z2\001xv", "_RNvCs1_1ru3foo",
	"_RB_", "_RNvCs1_1rB2_", "_ZSt4swapIiENSt9enable_ifIXsrSt6__and_IJSt6__not_ISt15__is_tuple_likeIT_EEEE5valueEvE4typeERS4_SE_",
	"_Z9999999999x", "_RNvCsZZZZZZZZZZZZZZ_1r1a",
};

static int check(const char *m, const char *want)
{
	char buf[1024];
	const char *got = demangle(m, buf, sizeof(buf));

	if (!want)
		return 1;
	if (!got || strcmp(got, want)) {
		printf("# %s\n#  want %s\n#  got  %s\n", m, want, got ? got : "(raw)");
		return 0;
	}
	return 1;
}

/* every prefix and every output size: NULL or a string inside the buffer */
static int robust(const char *m)
{
	size_t len = strlen(m);
	char *in = malloc(len + 1), buf[1100];

	for (size_t k = 0; k <= len; k++) {
		memcpy(in, m, k);
		in[k] = 0;
		char *exact = malloc(k + 1); /* exact size: ASan sees any over-read */

		memcpy(exact, in, k + 1);
		demangle(exact, buf, sizeof(buf));
		free(exact);
	}
	for (size_t size = 0; size < 1100; size += size < 64 ? 1 : 37) {
		const char *r = demangle(m, buf, size);

		if (r && (r != buf || strnlen(buf, size) >= size)) {
			free(in);
			return 0;
		}
	}
	free(in);
	return 1;
}

int main(void)
{
	char buf[1024], *big;
	int ok = 1;

	for (size_t i = 0; i < sizeof(cpp) / sizeof(cpp[0]); i++)
		ok &= check(cpp[i].mangled, cpp[i].want);
	T_OK(ok, "C++: %zu names as c++filt prints them", sizeof(cpp) / sizeof(cpp[0]));
	ok = 1;
	for (size_t i = 0; i < sizeof(rust) / sizeof(rust[0]); i++)
		ok &= check(rust[i].mangled, rust[i].want);
	T_OK(ok, "Rust legacy and v0: %zu names as rustc-demangle {:#}", sizeof(rust) / sizeof(rust[0]));
	ok = 1;
	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		if (demangle(raw[i], buf, sizeof(buf))) {
			printf("# %s -> %s\n", raw[i], buf);
			ok = 0;
		}
	T_OK(ok, "%zu malformed or unsupported names left raw", sizeof(raw) / sizeof(raw[0]));
	T_OK(demangle("_ZN5cbxns7SpinnerIiE3runEv", buf, 10) == NULL, "output that does not fit: raw, not cut");

	ok = 1;
	for (size_t i = 0; i < sizeof(cpp) / sizeof(cpp[0]); i++)
		ok &= robust(cpp[i].mangled);
	for (size_t i = 0; i < sizeof(rust) / sizeof(rust[0]); i++)
		ok &= robust(rust[i].mangled);
	T_OK(ok, "every prefix and every output size: NULL or a terminated string in the buffer");

	/* hostile shapes: deep nesting, self-referencing and doubling
	 * substitutions, back-reference chains: bounded, no crash */
	big = malloc(200000);
	strcpy(big, "_Z1f");
	memset(big + 4, 'P', 3000);
	strcpy(big + 3004, "i");
	T_OK(!demangle(big, buf, sizeof(buf)), "3000 nested pointers: refused (depth bound)");
	memset(big + 4, 'P', 100000);
	strcpy(big + 100004, "i");
	T_OK(!demangle(big, buf, sizeof(buf)), "a 100 KB name: refused (length bound)");
	strcpy(big, "_Z1fPi");
	for (int i = 0; i < 1900; i++)
		memcpy(big + 6 + i * 2, "S_", 3);
	T_OK(!demangle(big, buf, sizeof(buf)), "1900 substitutions: refused (output bound)");
	/* each S<k>_ names a pair of the previous: 2^k re-reads */
	strcpy(big, "_Z1fSt1aIiE");
	{
		size_t n = strlen(big);

		for (int i = 0; i < 60; i++)
			n += (size_t)sprintf(big + n, "St1bIS%X_S%X_E", i, i);
		big[n] = 0;
	}
	demangle(big, buf, sizeof(buf));
	T_OK(1, "doubling substitutions end (work bound)");
	strcpy(big, "_R");
	{
		size_t n = 2;

		for (int i = 0; i < 400; i++)
			n += (size_t)sprintf(big + n, "NvB%d_1a", i);
		big[n] = 0;
	}
	T_OK(!demangle(big, buf, sizeof(buf)), "Rust back-reference chain: refused");
	free(big);
	T_EXIT();
}
