// Threads until the JVM cannot create more: contained by the pids limit.
public class ThreadBomb {
    public static void main(String[] args) {
        int n = 0;
        try {
            while (true) {
                Thread t = new Thread(() -> {
                    try { Thread.sleep(600_000); } catch (InterruptedException e) { }
                });
                t.setDaemon(true);
                t.start();
                n++;
            }
        } catch (Throwable e) {
            System.out.println("thread creation refused after " + n + " threads: " + e);
            System.exit(3);
        }
    }
}
