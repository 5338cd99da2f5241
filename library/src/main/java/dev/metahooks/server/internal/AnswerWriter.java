package dev.metahooks.server.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.HookResponse;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.json.SharedSubtrees;
import dev.metahooks.json.WorkDeadline;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an answer as JSON bytes, at most {@code maxBytes} of them: the bound of last resort behind the estimates
 * of the hooks that amplify ({@code dev.metahooks.api.AnswerSize}). Writing stops at the limit, so that an answer
 * too large to send is never held whole (nor cached). The bytes go into {@link Blocks}, written once and never
 * copied as they grow; the ETag's hash is taken as they are written, not in a second pass over them. A subtree that
 * several children hold (their template's containers, say: {@code kube.PathCopies}) is written once per answer and
 * its bytes copied wherever it recurs ({@link SharedSubtrees}); the bytes are the same as Jackson's own. The answer is
 * held until it is complete, because its ETag header comes first and an answer over the limit must become a 422,
 * never a cut 200.
 */
public final class AnswerWriter {
  private static final Logger LOG = LoggerFactory.getLogger(AnswerWriter.class);

  /**
   * Built once: a writer holds the configuration lookups a mapper would redo on every call. Subtrees that children
   * share are written once per answer and copied wherever they recur ({@link SharedSubtrees}).
   */
  private static final ObjectWriter WRITER = SharedSubtrees.writing(JsonTrees.MAPPER).writer();

  private final long maxBytes;

  AnswerWriter(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * The controller's answer as the server sends it: a 200, its bytes and their ETag, and what the access log says
   * of the call.
   *
   * @throws HookError a 422 naming where writing stopped past the limit; a 500 (logged) when the answer cannot be
   *     written as JSON: never a 200 with a body Metacontroller cannot read
   */
  Reply write(Route route, ObjectNode request, HookResponse response) {
    Bounded out = new Bounded(Digests.streaming());
    JsonGenerator generator = null;
    try {
      generator = WRITER.createGenerator(out);
      WRITER.writeValue(generator, response);
    } catch (IOException | RuntimeException e) { // Jackson may wrap what the stream threw
      WorkDeadline.Passed passed = passed(e);
      if (passed != null) {
        throw HookError.from(passed);
      }
      if (causedBy(e)) {
        List<String> path = path(generator.getOutputContext());
        throw new HookError(
            ErrorCode.INVALID_REQUEST,
            "the answer is larger than "
                + maxBytes
                + " bytes (METAHOOKS_MAX_RESPONSE_BYTES); writing stopped at "
                + String.join("", path),
            path.isEmpty() ? "response" : path.get(0));
      }
      LOG.atError()
          .addKeyValue("controller", route.controllerName())
          .addKeyValue("hook", route.hookPath())
          .addKeyValue("error", e.toString())
          .log("response cannot be written as JSON");
      throw new HookError(ErrorCode.INTERNAL_ERROR, "the response could not be serialised");
    }
    return new Reply(
        200,
        out.sink.finish(),
        Digests.finish(out.digest).etag(),
        "ok",
        CallSummary.of(route.hookPath(), request, response),
        false);
  }

  /** Builds Jackson's serializers of these answers' types before the first call needs them. */
  static void prepare(HookResponse... responses) throws IOException {
    for (HookResponse response : responses) {
      WRITER.writeValue(OutputStream.nullOutputStream(), response);
    }
  }

  /** An error as the server sends it: its JSON body, no ETag. */
  static Reply error(HookError error, CallSummary summary) {
    return new Reply(
        error.status(), Blocks.of(error(error)), null, error.code().code(), summary, false);
  }

  /** An error's JSON body: small, and always writable. */
  private static byte[] error(HookError error) {
    try {
      return WRITER.writeValueAsBytes(error.body());
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The deadline that stopped the writing, if one did (Jackson may wrap what the stream threw). */
  private static WorkDeadline.Passed passed(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof WorkDeadline.Passed passed) {
        return passed;
      }
    }
    return null;
  }

  private static boolean causedBy(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof Overflow) {
        return true;
      }
    }
    return false;
  }

  /** Where the generator was, outermost first: {@code children}, {@code [9123]}, {@code .spec}. */
  private static List<String> path(JsonStreamContext context) {
    List<String> segments = new ArrayList<>();
    for (JsonStreamContext at = context; at != null && !at.inRoot(); at = at.getParent()) {
      if (at.inArray()) {
        segments.add("[" + Math.max(0, at.getCurrentIndex()) + "]");
      } else if (at.getCurrentName() != null) {
        segments.add(
            (at.getParent() != null && at.getParent().inRoot() ? "" : ".") + at.getCurrentName());
      }
    }
    Collections.reverse(segments);
    return segments;
  }

  /** Bytes within the limit, hashed as they come (Jackson hands them over in blocks of its buffer). */
  private final class Bounded extends OutputStream {
    private final Blocks.Sink sink = new Blocks.Sink();
    private final MessageDigest digest;

    Bounded(MessageDigest digest) {
      this.digest = digest;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      grow(length);
      digest.update(bytes, offset, length);
      sink.write(bytes, offset, length);
    }

    @Override
    public void write(int b) {
      grow(1);
      digest.update((byte) b);
      sink.write(b);
    }

    private void grow(int length) {
      WorkDeadline
          .check(); // a block of Jackson's buffer, about a child: a call given up on stops here
      if (sink.size() + length > maxBytes) {
        throw new Overflow();
      }
    }
  }

  /** Thrown by the stream (which may not throw IOException) past the limit. */
  private static final class Overflow extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }
}
