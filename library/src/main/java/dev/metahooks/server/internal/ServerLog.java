package dev.metahooks.server.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's one logger, named for the class operators know it by ({@code dev.metahooks.server.HookServer}), and
 * its exit on a lost heap: shared by the server's machinery, which sits below that class.
 */
public final class ServerLog {
  /** The logger of every line the server writes about itself and its calls. */
  public static final Logger LOG = LoggerFactory.getLogger("dev.metahooks.server.HookServer");

  private ServerLog() {}

  /**
   * A process whose heap ran out may have lost any thread (Jetty's acceptor among them) and serve no more while it
   * looks alive: it exits instead, and the kubelet restarts it ({@code -XX:+ExitOnOutOfMemoryError} in the image
   * does the same for every thread).
   */
  public static void exitOnOutOfMemory(Throwable e) {
    if (e instanceof OutOfMemoryError) {
      LOG.atError().addKeyValue("error", e.toString()).log("out of memory: exiting");
      Runtime.getRuntime().halt(3);
    }
  }
}
