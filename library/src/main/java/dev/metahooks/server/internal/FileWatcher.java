package dev.metahooks.server.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a reload action when any of its files changes (modification time or size). Kubernetes updates a mounted
 * Secret by swapping a symlink, which a polling check sees and a directory watch can miss.
 */
public final class FileWatcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileWatcher.class);
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "file-watcher");
            thread.setDaemon(true);
            return thread;
          });
  private final Map<Path, String> stamps = new ConcurrentHashMap<>();

  public FileWatcher(Duration interval, String what, List<Path> files, Runnable reload) {
    files.forEach(f -> stamps.put(f, stamp(f)));
    long millis = interval.toMillis();
    timer.scheduleWithFixedDelay(
        () -> {
          boolean changed = false;
          for (Path file : files) {
            String now = stamp(file);
            changed |= !Objects.equals(stamps.put(file, now), now);
          }
          if (changed) {
            try {
              reload.run();
              LOG.atInfo().addKeyValue("files", files.toString()).log(what + " reloaded");
            } catch (RuntimeException e) {
              // Keep serving with what was loaded before; a half-written rotation is retried next
              // time.
              stamps.clear();
              files.forEach(f -> stamps.put(f, "retry"));
              LOG.atWarn()
                  .addKeyValue("files", files.toString())
                  .addKeyValue("error", e.getMessage())
                  .log(what + " could not be reloaded; keeping the previous one");
            }
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }

  private static String stamp(Path file) {
    try {
      Path real = file.toRealPath();
      FileTime modified = Files.getLastModifiedTime(real);
      return real + "@" + modified.toMillis() + ":" + Files.size(real);
    } catch (IOException e) {
      return "missing";
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
