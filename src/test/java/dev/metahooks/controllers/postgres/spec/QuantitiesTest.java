package dev.metahooks.controllers.postgres.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class QuantitiesTest {
  @Test
  void comparesByValue() {
    assertThat(Quantities.same("1Gi", "1024Mi")).isTrue();
    assertThat(Quantities.same("1G", "1000M")).isTrue();
    assertThat(Quantities.same("1Gi", "1G")).isFalse();
    assertThat(Quantities.same("1e3", "1k")).isTrue();
    assertThat(Quantities.bytes("500m")).isEqualByComparingTo(new BigDecimal("0.5"));
  }

  @Test
  void refusesWhatKubernetesRefuses() {
    assertThat(Quantities.valid("1GB")).isFalse();
    assertThat(Quantities.valid("-1")).isFalse();
    assertThat(Quantities.valid("1e99999")).isFalse();
    assertThat(Quantities.valid("")).isFalse();
    assertThat(Quantities.same("odd", "odd")).isTrue();
  }
}
