package dev.metahooks.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Blocks give back exactly the bytes written, however the writes fall on block boundaries. */
class BlocksTest {
  @Test
  void writesOfEverySizeComeBackInOrder() throws IOException {
    Random random = new Random(15);
    for (int round = 0; round < 50; round++) {
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      Blocks.Sink sink = new Blocks.Sink();
      int writes = random.nextInt(40);
      for (int i = 0; i < writes; i++) {
        if (random.nextInt(4) == 0) {
          int b = random.nextInt(256);
          expected.write(b);
          sink.write(b);
        } else { // up to two blocks at once, from an offset into a larger array
          byte[] bytes = new byte[random.nextInt(2 * Blocks.BLOCK + 10)];
          random.nextBytes(bytes);
          int offset = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
          int length = random.nextInt(bytes.length - offset + 1);
          expected.write(bytes, offset, length);
          sink.write(bytes, offset, length);
        }
      }
      Blocks blocks = sink.finish();

      assertThat(blocks.size()).isEqualTo(expected.size());
      assertThat(blocks.toByteArray()).isEqualTo(expected.toByteArray());
      assertThat(blocks.stream().readAllBytes()).isEqualTo(expected.toByteArray());
      ByteArrayOutputStream sent = new ByteArrayOutputStream();
      blocks.writeTo(sent);
      assertThat(sent.toByteArray()).isEqualTo(expected.toByteArray());
    }
  }

  @Test
  void anExactBlockBoundaryAndNothingAtAllAreKeptAsWritten() throws IOException {
    Blocks.Sink exact = new Blocks.Sink();
    exact.write(new byte[Blocks.FIRST + Blocks.BLOCK], 0, Blocks.FIRST + Blocks.BLOCK);
    assertThat(exact.finish().toByteArray()).hasSize(Blocks.FIRST + Blocks.BLOCK);

    Blocks empty = new Blocks.Sink().finish();
    assertThat(empty.size()).isZero();
    assertThat(empty.stream().readAllBytes()).isEmpty();
  }
}
