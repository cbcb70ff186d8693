package org.jdvm.endpoint.transport;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.SocketChannel;
import org.jdvm.host.os.Posix;

/**
 * The descriptor number behind a {@link SocketChannel}, for a {@link Connection}'s sends that skip
 * its writer thread. The JDK keeps it in {@code sun.nio.ch}, which the DVM's JVM opens to jdvm with
 * {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED} (the {@code jdvm} launcher, {@code jdvm
 * start --detach} and the test JVMs do); a JVM started without it, or without native access, gets
 * -1, and its connections write everything through their writer, as before. So does a JVM run with
 * {@code -Dorg.jdvm.directSend=false}: to measure what the direct sends save, or to rule them out.
 */
final class SocketFd {
  private static final MethodHandle FD_VAL = lookup();

  private SocketFd() {}

  private static MethodHandle lookup() {
    if (Posix.unavailable().isPresent()
        || "false".equals(System.getProperty("org.jdvm.directSend"))) {
      return null;
    }
    try {
      Class<?> selectable = Class.forName("sun.nio.ch.SelChImpl");
      if (!selectable.getModule().isExported("sun.nio.ch", SocketFd.class.getModule())) {
        return null;
      }
      return MethodHandles.lookup()
          .findVirtual(selectable, "getFDVal", MethodType.methodType(int.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Whether this JVM lets connections send without their writer. */
  static boolean available() {
    return FD_VAL != null;
  }

  /** The channel's descriptor, or -1 where it cannot be known. */
  static int of(SocketChannel channel) {
    if (FD_VAL == null) {
      return -1;
    }
    try {
      return (int) FD_VAL.invoke(channel);
    } catch (Throwable t) {
      return -1;
    }
  }
}
