package dev.metahooks.server.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.metahooks.json.JsonTrees;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers by itself (a request line or header it cannot parse, 414, 431, a TLS name that does not
 * match, a fault outside the routes) in the project's JSON, {@code {"error", "message"}}, instead of an HTML page.
 */
final class JsonErrorHandler extends ErrorHandler {
  /** Protocol errors, before there is a request to answer. */
  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json");
    return ByteBuffer.wrap(body(status, reason));
  }

  /**
   * Every method gets its JSON body: Jetty's own handler writes one only for GET, POST and HEAD, so that an HTTP/2
   * prior-knowledge preface ({@code PRI * HTTP/2.0}, refused with 426) got an empty answer.
   */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(body(code, message)), callback);
  }

  static byte[] body(int status, String reason) {
    String message = reason == null || reason.isBlank() ? HttpStatus.getMessage(status) : reason;
    try {
      return JsonTrees.MAPPER.writeValueAsBytes(
          new HookError.Body(ErrorCode.forStatus(status), message, null));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
