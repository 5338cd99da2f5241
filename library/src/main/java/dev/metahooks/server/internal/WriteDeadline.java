package dev.metahooks.server.internal;

import io.javalin.http.Context;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;

/**
 * An answer is written within {@code METAHOOKS_WRITE_TIMEOUT_MS}, or its connection is closed. Jetty's idle
 * timeout alone would not do: it starts again with every byte the client takes, so a client that reads a byte a
 * second would hold its thread and its answer for as long as it likes. (Jetty 12 reads its
 * {@code HttpConfiguration.setMinResponseDataRate} nowhere.)
 */
public final class WriteDeadline implements AutoCloseable {
  private final Duration timeout;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(HookCalls.daemons("write-deadline-"));

  public WriteDeadline(Duration timeout) {
    this.timeout = timeout;
  }

  /** A deadline for writing the answer of this call: closed by try-with-resources once it is written. */
  public Armed arm(Context ctx) {
    EndPoint endPoint =
        ServletContextRequest.getServletContextRequest(ctx.req())
            .getConnectionMetaData()
            .getConnection()
            .getEndPoint();
    Runnable cut = () -> cut(endPoint);
    return new Armed(timer.schedule(cut, timeout.toMillis(), TimeUnit.MILLISECONDS));
  }

  /**
   * Closes the connection at once, unsent bytes and all (a reset): a plain close would leave the kernel sending
   * what it holds of the answer, at the pace of the client that did not take it.
   */
  private void cut(EndPoint endPoint) {
    if (endPoint.getTransport() instanceof NetworkChannel channel) {
      try {
        channel.setOption(StandardSocketOptions.SO_LINGER, 0);
      } catch (IOException | UnsupportedOperationException e) {
        // closed meanwhile, or not a socket: the close below does what it can
      }
    }
    endPoint.close(
        new TimeoutException(
            "the answer was not taken within "
                + timeout.toMillis()
                + " ms (METAHOOKS_WRITE_TIMEOUT_MS)"));
  }

  /** The deadline of one answer; {@link #close} disarms it. */
  public record Armed(ScheduledFuture<?> closing) implements AutoCloseable {
    @Override
    public void close() {
      closing.cancel(false);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
