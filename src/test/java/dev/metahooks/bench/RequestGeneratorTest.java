package dev.metahooks.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.HookAnswers;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RequestGeneratorTest {
  @Test
  void sameSeedSameBytesAndTheHooksAcceptThem() {
    byte[] catset = new RequestGenerator(7).catset(50);
    assertThat(Arrays.equals(catset, new RequestGenerator(7).catset(50))).isTrue();
    HookAnswers.Answer answer = HookAnswers.call("catset", "sync", catset);
    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
    assertThat(answer.body().path("children").size()).isEqualTo(50);
    HookAnswers.Answer job =
        HookAnswers.call("indexedjob", "sync", new RequestGenerator(7).indexedjob(50));
    assertThat(job.status()).as(job.body().toString()).isEqualTo(200);
    assertThat(job.body().at("/status/succeeded").asInt()).isEqualTo(30);
  }

  @Test
  void tenThousandPodsAreTensOfMegabytes() {
    int size = new RequestGenerator(1).catset(10_000).length;
    assertThat(size).isBetween(25_000_000, 45_000_000);
  }
}
