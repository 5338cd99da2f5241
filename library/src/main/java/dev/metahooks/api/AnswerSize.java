package dev.metahooks.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The largest answer a hook may give, in bytes of JSON, and the estimate that keeps an answer below it. A hook
 * whose answer grows with a count in the request (a Service per replica, a claim per replica and template, a Pod
 * per index) estimates count × the size of one item before it builds any, so that a 1.6 kB StatefulSet asking
 * for 100,000 Services of twenty ports each gets a 422 naming the field, instead of an answer that fills the heap.
 * A count alone is no bound: the same count of small items is fine.
 *
 * <p>The server sets the limit around each call ({@code METAHOOKS_MAX_RESPONSE_BYTES}); elsewhere (tests, the
 * offline CLI) the default for this heap applies.
 */
public final class AnswerSize {
  /** What an item adds beyond its template: its name, separators, a label or two. */
  static final long ITEM_OVERHEAD = 128;

  private static final long DEFAULT_LIMIT = defaultLimit();
  private static final ThreadLocal<Long> LIMIT = ThreadLocal.withInitial(() -> DEFAULT_LIMIT);

  private AnswerSize() {}

  /**
   * An eighteenth of the heap per compute slot (10.5 MiB of the 378.6 MiB usable under -Xmx384m, two cores): an
   * answer's tree takes up to six times its bytes, and every compute slot may build one at once.
   */
  public static long defaultLimit() {
    return Runtime.getRuntime().maxMemory()
        / (18L * Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  /** Runs one hook call with this limit. */
  public static <T> T limitedTo(long bytes, Supplier<T> call) {
    Long previous = LIMIT.get();
    LIMIT.set(bytes);
    try {
      return call.get();
    } finally {
      LIMIT.set(previous);
    }
  }

  /** The limit of the call running on this thread. */
  public static long limit() {
    return LIMIT.get();
  }

  /** How many items of {@code itemBytes} fit in an answer; at least one. */
  public static long maxItems(long itemBytes) {
    return Math.max(1, limit() / (itemBytes + ITEM_OVERHEAD));
  }

  /** The bytes of {@code node} as JSON, counted as they are written and not kept. */
  public static long bytesOf(JsonNode node) {
    Counting out = new Counting();
    try {
      JsonTrees.MAPPER.writeValue(out, node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.count;
  }

  /** A new estimate, to which a hook adds each kind of item it is about to build. */
  public static Estimate estimate() {
    return new Estimate();
  }

  /** The sum of count × item size over the kinds of items of one answer. */
  public static final class Estimate {
    private record Term(String itemField, String countField, long count, long itemBytes) {
      long bytes() {
        long each = itemBytes + ITEM_OVERHEAD;
        return count > Long.MAX_VALUE / each ? Long.MAX_VALUE : count * each;
      }
    }

    private final List<Term> terms = new ArrayList<>();

    private Estimate() {}

    /**
     * {@code count} items, each about the size of {@code item} as JSON.
     *
     * @param itemField the request field the items are copied from, e.g. {@code parent.spec.template}
     * @param countField the request field that sets how many there are, e.g. {@code parent.spec.replicas}
     */
    public Estimate add(String itemField, String countField, long count, JsonNode item) {
      return add(itemField, countField, count, count == 0 ? 0 : bytesOf(item));
    }

    public Estimate add(String itemField, String countField, long count, long itemBytes) {
      terms.add(new Term(itemField, countField, Math.max(0, count), itemBytes));
      return this;
    }

    /**
     * Refuses an answer above the limit, naming the count of the largest kind of item.
     *
     * @throws InvalidRequestException when the answer would be larger than the limit
     */
    public void check() {
      long total = 0;
      Term largest = null;
      for (Term term : terms) {
        total = term.bytes() > Long.MAX_VALUE - total ? Long.MAX_VALUE : total + term.bytes();
        if (largest == null || term.bytes() > largest.bytes()) {
          largest = term;
        }
      }
      if (largest != null && total > limit()) {
        throw new InvalidRequestException(
            largest.countField(),
            largest.itemField()
                + " × "
                + largest.countField()
                + " ("
                + largest.count()
                + " × about "
                + (largest.itemBytes() + ITEM_OVERHEAD)
                + " bytes) makes an answer"
                + " of about "
                + (total == Long.MAX_VALUE ? "2^63" : String.valueOf(total))
                + " bytes, above the limit of "
                + limit()
                + " (METAHOOKS_MAX_RESPONSE_BYTES)");
      }
    }
  }

  private static final class Counting extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
