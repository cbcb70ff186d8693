package org.jdvm.client;

/**
 * What {@code jdvm run} inside a job does, as a program the DVM launches: connect from the
 * environment (so as the job's own process), spawn a job into the reservation named by the first
 * argument, wait for it, and say how it went.
 */
public final class InJobMain {
  private InJobMain() {}

  public static void main(String[] args) throws Exception {
    try (JdvmClient c = JdvmClient.connector().output(OutputHandler.STDIO).connect()) {
      System.out.println("ROLE " + c.role() + " self=" + c.self());
      Job job = c.spawn(SpawnRequest.of("echo", "nested").target(args[0]).build());
      JobEnd end = job.awaitEnd();
      System.out.println("NESTED exit=" + end.exitCode() + " nspace=" + job.nspace());
    } catch (PmixException e) {
      System.out.println("FAILED " + e.statusName());
      System.exit(3);
    }
  }
}
