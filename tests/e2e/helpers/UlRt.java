// tests/e2e/ulang_rt.sh's Java program (run with -XX:+ExtendedDTraceProbes):
// once the file GO exists, N calls of ulRtMeth, M UlRtObj objects and T
// threads named ulrt-thread-0.. (each started and joined), then "done";
// it ends when GO is deleted.  The go signal is a file, not a signal:
// Java runs each signal handler in a new thread, one thread__start more.
// Usage: java UlRt.java N M T GO
import java.io.File;

public class UlRt {
	static final class UlRtObj {
		final int v;
		UlRtObj(int v) { this.v = v; }
	}

	static int ulRtMeth(int x) { return x + 1; }

	public static void main(String[] a) throws Exception {
		int n = Integer.parseInt(a[0]), m = Integer.parseInt(a[1]), t = Integer.parseInt(a[2]);
		File go = new File(a[3]);
		System.out.println("ready");
		for (int i = 0; i < 3000 && !go.exists(); i++)
			Thread.sleep(20);
		long s = 0;
		for (int i = 0; i < n; i++)
			s += ulRtMeth(i);
		Object[] keep = new Object[m];
		for (int i = 0; i < m; i++)
			keep[i] = new UlRtObj(i);
		Thread[] th = new Thread[t];
		for (int i = 0; i < t; i++) {
			th[i] = new Thread(() -> { }, "ulrt-thread-" + i);
			th[i].start();
		}
		for (Thread x : th)
			x.join();
		System.out.println("done " + s + " " + keep.length);
		for (int i = 0; i < 3000 && go.exists(); i++)
			Thread.sleep(20);
	}
}
