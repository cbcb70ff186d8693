package org.jdvm.host.identity;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A fresh JVM's first look-ups, made at once on virtual threads (as a DVM's first connections are):
 * prints {@code ok} once every one has its answer. Run by {@link LoopbackPeersTest} with one
 * carrier thread, where a look-up that blocked a carrier hung them all.
 */
public final class FirstLookups {
  private FirstLookups() {}

  public static void main(String[] args) throws Exception {
    InetAddress lo = InetAddress.getLoopbackAddress();
    try (ServerSocket server = new ServerSocket(0, 8, lo);
        Socket client = new Socket(lo, server.getLocalPort());
        Socket accepted = server.accept()) {
      List<Thread> lookups = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        lookups.add(
            Thread.ofVirtual()
                .start(
                    () ->
                        LoopbackPeers.ownerOf(
                            (InetSocketAddress) accepted.getRemoteSocketAddress(),
                            (InetSocketAddress) accepted.getLocalSocketAddress())));
      }
      for (Thread t : lookups) {
        t.join();
      }
    }
    System.out.println("ok");
  }
}
