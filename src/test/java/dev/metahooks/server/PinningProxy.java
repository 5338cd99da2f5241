package dev.metahooks.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A Service's address as kube-proxy makes it: each new connection goes to the endpoint of the moment and stays
 * with it for its life, whatever the endpoints become. What a rollout test needs to see what Metacontroller sees.
 * A connection the endpoint refuses or resets is reset towards the client too.
 */
final class PinningProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "proxy");
            thread.setDaemon(true);
            return thread;
          });
  private volatile int endpoint;

  PinningProxy(int endpoint) throws IOException {
    this.endpoint = endpoint;
    this.listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  int port() {
    return listener.getLocalPort();
  }

  /** The endpoints changed: new connections go to {@code port}; open ones stay where they are. */
  void route(int port) {
    endpoint = port;
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        int to = endpoint;
        threads.execute(() -> pipe(client, to));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pipe(Socket client, int to) {
    try (client;
        Socket server = new Socket(InetAddress.getLoopbackAddress(), to)) {
      Future<?> up = threads.submit(() -> copy(client, server));
      copy(server, client);
      up.get();
    } catch (Exception e) {
      reset(client);
    }
  }

  /** Bytes one way until the sender closes its side, then closes that side onwards; a reset is passed on. */
  private static void copy(Socket from, Socket to) {
    byte[] buffer = new byte[64 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      reset(to);
      reset(from);
    }
  }

  private static void reset(Socket socket) {
    try {
      socket.setSoLinger(true, 0);
      socket.close();
    } catch (IOException e) {
      // closed already
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    threads.shutdownNow();
  }
}
