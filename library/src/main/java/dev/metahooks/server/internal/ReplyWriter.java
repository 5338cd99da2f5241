package dev.metahooks.server.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.metahooks.json.JsonTrees;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.slf4j.Logger;

/** Where every answer is finished: a hook call's reply, an error, a probe's JSON. */
public final class ReplyWriter {
  private static final Logger LOG = ServerLog.LOG;
  public static final String JSON = "application/json";

  private ReplyWriter() {}

  /**
   * Writes and flushes the reply here, so that a call counted as active is answered before shutdown can stop the
   * server. False (logged) when the client did not take it: gone, or not reading within the write timeout.
   */
  public static boolean write(Context ctx, Reply reply, boolean bodyRead, boolean notModified) {
    // A body left unread makes the connection unusable for the next request: say so. (After SIGTERM
    // every
    // answer says so already: see the before-handler.)
    if (!bodyRead) {
      ctx.header("Connection", "close");
    }
    if (reply.status() == 429) {
      ctx.header("Retry-After", "1"); // Metacontroller requeues after it without counting an error
    }
    if (reply.etag() != null) {
      ctx.header("ETag", reply.etag());
    }
    try {
      if (notModified) { // Metacontroller substitutes the body it holds for this ETag
        ctx.status(304);
        ctx.res().setContentType(null);
      } else {
        ctx.status(reply.status()).contentType(JSON);
        ctx.res().setContentLengthLong(reply.body().size());
        reply.body().writeTo(ctx.res().getOutputStream()); // block by block, as written and cached
      }
      ctx.res().flushBuffer();
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.atWarn()
          .addKeyValue("controller", ctx.pathParam("controller"))
          .addKeyValue("hook", ctx.pathParam("hook"))
          .addKeyValue("status", reply.status())
          .addKeyValue("bytes", reply.body().size())
          .addKeyValue("error", e.toString())
          .log("answer not written: the client did not take it");
      return false;
    }
  }

  public static void error(Context ctx, HookError error) {
    json(ctx, error.status(), error.body());
  }

  public static void json(Context ctx, int status, Object body) {
    try {
      ctx.status(status).contentType(JSON).result(JsonTrees.MAPPER.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
