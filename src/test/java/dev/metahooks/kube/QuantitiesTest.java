package dev.metahooks.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.Quantities.Format;
import dev.metahooks.kube.Quantities.Parsed;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The canonical form against the tables of Kubernetes' own
 * {@code staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go} (v1.36.3): {@code TestQuantityParse}
 * (value and format of each input, and of its {@code -} and {@code +} forms), its invalid inputs,
 * {@code TestQuantityString} (canonical text of a value in a format, kept when parsed, and reached from an
 * alternate text), {@code TestQuantityParseEmit} and {@code TestQuantityRoundUp} at the milli scale that
 * {@code SetDefaults_ResourceList} uses.
 */
class QuantitiesTest {
  private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);

  /** TestQuantityParse: decQuantity(mantissa, scale, format), or MAX for the capped binary values. */
  @ParameterizedTest(name = "{0} = {1}e{2} {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      0                | 0               | 0   | DECIMAL_SI
      0n               | 0               | 0   | DECIMAL_SI
      0u               | 0               | 0   | DECIMAL_SI
      0m               | 0               | 0   | DECIMAL_SI
      0Ki              | 0               | 0   | BINARY_SI
      0k               | 0               | 0   | DECIMAL_SI
      0Mi              | 0               | 0   | BINARY_SI
      0M               | 0               | 0   | DECIMAL_SI
      0Gi              | 0               | 0   | BINARY_SI
      0G               | 0               | 0   | DECIMAL_SI
      0Ti              | 0               | 0   | BINARY_SI
      0T               | 0               | 0   | DECIMAL_SI
      1                | 1               | 0   | DECIMAL_SI
      1Ki              | 1024            | 0   | BINARY_SI
      8Ki              | 8192            | 0   | BINARY_SI
      7Mi              | 7340032         | 0   | BINARY_SI
      6Gi              | 6442450944      | 0   | BINARY_SI
      5Ti              | 5497558138880   | 0   | BINARY_SI
      4Pi              | 4503599627370496 | 0  | BINARY_SI
      3Ei              | 3458764513820540928 | 0 | BINARY_SI
      10Ti             | 10995116277760  | 0   | BINARY_SI
      100Ti            | 109951162777600 | 0   | BINARY_SI
      5n               | 5               | -9  | DECIMAL_SI
      4u               | 4               | -6  | DECIMAL_SI
      3m               | 3               | -3  | DECIMAL_SI
      9                | 9               | 0   | DECIMAL_SI
      8k               | 8               | 3   | DECIMAL_SI
      50k              | 5               | 4   | DECIMAL_SI
      7M               | 7               | 6   | DECIMAL_SI
      6G               | 6               | 9   | DECIMAL_SI
      5T               | 5               | 12  | DECIMAL_SI
      40T              | 4               | 13  | DECIMAL_SI
      300T             | 3               | 14  | DECIMAL_SI
      2P               | 2               | 15  | DECIMAL_SI
      1E               | 1               | 18  | DECIMAL_SI
      1E-3             | 1               | -3  | DECIMAL_EXPONENT
      1e3              | 1               | 3   | DECIMAL_EXPONENT
      1E6              | 1               | 6   | DECIMAL_EXPONENT
      1e9              | 1               | 9   | DECIMAL_EXPONENT
      1E12             | 1               | 12  | DECIMAL_EXPONENT
      1e15             | 1               | 15  | DECIMAL_EXPONENT
      1E18             | 1               | 18  | DECIMAL_EXPONENT
      1e14             | 1               | 14  | DECIMAL_EXPONENT
      1e13             | 1               | 13  | DECIMAL_EXPONENT
      100.035k         | 100035          | 0   | DECIMAL_SI
      0.001            | 1               | -3  | DECIMAL_SI
      0.0005k          | 5               | -1  | DECIMAL_SI
      0.005            | 5               | -3  | DECIMAL_SI
      0.05             | 5               | -2  | DECIMAL_SI
      0.5              | 5               | -1  | DECIMAL_SI
      0.00050k         | 5               | -1  | DECIMAL_SI
      0.00500          | 5               | -3  | DECIMAL_SI
      0.05000          | 5               | -2  | DECIMAL_SI
      0.50000          | 5               | -1  | DECIMAL_SI
      0.5e0            | 5               | -1  | DECIMAL_EXPONENT
      0.5e-1           | 5               | -2  | DECIMAL_EXPONENT
      0.5e-2           | 5               | -3  | DECIMAL_EXPONENT
      10.035M          | 10035           | 3   | DECIMAL_SI
      1.2e3            | 12              | 2   | DECIMAL_EXPONENT
      1.3E+6           | 13              | 5   | DECIMAL_EXPONENT
      1.40e9           | 14              | 8   | DECIMAL_EXPONENT
      1.53E12          | 153             | 10  | DECIMAL_EXPONENT
      1.6e15           | 16              | 14  | DECIMAL_EXPONENT
      1.7E18           | 17              | 17  | DECIMAL_EXPONENT
      9.01             | 901             | -2  | DECIMAL_SI
      8.1k             | 81              | 2   | DECIMAL_SI
      7.123456M        | 7123456         | 0   | DECIMAL_SI
      6.987654321G     | 6987654321      | 0   | DECIMAL_SI
      5.444T           | 5444            | 9   | DECIMAL_SI
      40.1T            | 401             | 11  | DECIMAL_SI
      300.2T           | 3002            | 11  | DECIMAL_SI
      2.5P             | 25              | 14  | DECIMAL_SI
      1.01E            | 101             | 16  | DECIMAL_SI
      3.001n           | 4               | -9  | DECIMAL_SI
      1.1E-9           | 2               | -9  | DECIMAL_EXPONENT
      0.0000000001     | 1               | -9  | DECIMAL_SI
      0.0000000005     | 1               | -9  | DECIMAL_SI
      0.00000000050    | 1               | -9  | DECIMAL_SI
      0.5e-9           | 1               | -9  | DECIMAL_EXPONENT
      0.9n             | 1               | -9  | DECIMAL_SI
      0.00000012345    | 124             | -9  | DECIMAL_SI
      0.00000012354    | 124             | -9  | DECIMAL_SI
      9Ei              | MAX             | 0   | BINARY_SI
      9223372036854775807Ki | MAX        | 0   | BINARY_SI
      12E              | 12              | 18  | DECIMAL_SI
      100.035Ki        | 10243584        | -2  | BINARY_SI
      0.5Mi            | 524288          | 0   | BINARY_SI
      0.05Gi           | 536870912       | -1  | BINARY_SI
      0.025Ti          | 274877906944    | -1  | BINARY_SI
      0.000000000001Ki | 2               | -9  | DECIMAL_SI
      .001             | 1               | -3  | DECIMAL_SI
      .0001k           | 100             | -3  | DECIMAL_SI
      1.               | 1               | 0   | DECIMAL_SI
      1.G              | 1               | 9   | DECIMAL_SI
      """)
  void parsesAsKubernetesDoes(String input, String mantissa, int scale, Format format) {
    BigDecimal expected =
        mantissa.equals("MAX")
            ? MAX_INT64
            : new BigDecimal(new BigInteger(mantissa)).scaleByPowerOfTen(scale);

    Parsed plain = Quantities.parse(input);
    assertThat(plain.value()).as(input).isEqualByComparingTo(expected);
    assertThat(plain.format()).as(input).isEqualTo(format);

    Parsed negative = Quantities.parse("-" + input);
    assertThat(negative.value()).as("-" + input).isEqualByComparingTo(expected.negate());
    assertThat(negative.format()).as("-" + input).isEqualTo(format);

    Parsed positive = Quantities.parse("+" + input);
    assertThat(positive.value()).as("+" + input).isEqualByComparingTo(expected);
    assertThat(positive.format()).as("+" + input).isEqualTo(format);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ",
        ""
      })
  void refusesWhatKubernetesRefuses(String input) {
    assertThat(Quantities.valid(input)).isFalse();
    assertThatThrownBy(() -> Quantities.canonical(input))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * TestQuantityString: a value in a format is written as {@code expect}; {@code expect} parses to itself with its
   * text kept; {@code alternate} (when given) is not kept and comes out as {@code expect}; the negated value is
   * written with a minus.
   */
  @ParameterizedTest(name = "{0}e{1} {2} -> {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
      1073741824    | 0   | BINARY_SI        | 1Gi       | 1024Mi
      314572800     | 0   | BINARY_SI        | 300Mi     | 307200Ki
      6144          | 0   | BINARY_SI        | 6Ki       | -
      1074815565824 | 0   | BINARY_SI        | 1001Gi    | 1025024Mi
      1099511627776 | 0   | BINARY_SI        | 1Ti       | 1024Gi
      5             | 0   | BINARY_SI        | 5         | 5000m
      500           | -3  | BINARY_SI        | 500m      | 0.5
      1             | 9   | DECIMAL_SI       | 1G        | 1000M
      1000          | 6   | DECIMAL_SI       | 1G        | 0.001T
      1000000       | 3   | DECIMAL_SI       | 1G        | -
      1000000000    | 0   | DECIMAL_SI       | 1G        | -
      1             | -3  | DECIMAL_SI       | 1m        | 1000u
      80            | -3  | DECIMAL_SI       | 80m       | -
      1080          | -3  | DECIMAL_SI       | 1080m     | 1.08
      108           | -2  | DECIMAL_SI       | 1080m     | 1080000000n
      10800         | -4  | DECIMAL_SI       | 1080m     | -
      300           | 6   | DECIMAL_SI       | 300M      | -
      1             | 12  | DECIMAL_SI       | 1T        | -
      1234567       | 6   | DECIMAL_SI       | 1234567M  | -
      1234567       | -3  | BINARY_SI        | 1234567m  | -
      3             | 3   | DECIMAL_SI       | 3k        | -
      1025          | 0   | BINARY_SI        | 1025      | -
      0             | 0   | DECIMAL_SI       | 0         | -
      0             | 0   | BINARY_SI        | 0         | -
      1             | 9   | DECIMAL_EXPONENT | 1e9       | .001e12
      1             | -3  | DECIMAL_EXPONENT | 1e-3      | 0.001e0
      1             | -9  | DECIMAL_EXPONENT | 1e-9      | 1000e-12
      80            | -3  | DECIMAL_EXPONENT | 80e-3     | -
      300           | 6   | DECIMAL_EXPONENT | 300e6     | -
      1             | 12  | DECIMAL_EXPONENT | 1e12      | -
      1             | 3   | DECIMAL_EXPONENT | 1e3       | -
      3             | 3   | DECIMAL_EXPONENT | 3e3       | -
      3             | 3   | DECIMAL_SI       | 3k        | -
      0             | 0   | DECIMAL_EXPONENT | 0         | 00
      1             | -9  | DECIMAL_SI       | 1n        | -
      80            | -9  | DECIMAL_SI       | 80n       | -
      1080          | -9  | DECIMAL_SI       | 1080n     | -
      108           | -8  | DECIMAL_SI       | 1080n     | -
      10800         | -10 | DECIMAL_SI       | 1080n     | -
      1             | -6  | DECIMAL_SI       | 1u        | -
      80            | -6  | DECIMAL_SI       | 80u       | -
      1080          | -6  | DECIMAL_SI       | 1080u     | -
      """)
  void writesTheCanonicalForm(
      String mantissa, int scale, Format format, String expect, String alternate) {
    BigDecimal value = new BigDecimal(new BigInteger(mantissa)).scaleByPowerOfTen(scale);
    assertThat(Quantities.format(value, format)).isEqualTo(expect);

    Parsed again = Quantities.parse(expect);
    assertThat(again.kept()).as("%s is kept as written", expect).isEqualTo(expect);
    assertThat(Quantities.canonical(expect)).isEqualTo(expect);

    if (alternate != null) {
      assertThat(Quantities.parse(alternate).kept()).as("%s is not canonical", alternate).isNull();
      assertThat(Quantities.canonical(alternate)).as(alternate).isEqualTo(expect);
    }
    if (value.signum() != 0) {
      assertThat(Quantities.format(value.negate(), format)).isEqualTo("-" + expect);
    }
  }

  /** TestQuantityParseEmit, with the negative forms. */
  @ParameterizedTest
  @CsvSource({
    "1Ki, 1Ki",
    "1Mi, 1Mi",
    "1Gi, 1Gi",
    "1024Mi, 1Gi",
    "1000M, 1G",
    ".001Ki, 1024m",
    ".000001Ki, 1024u",
    ".000000001Ki, 1024n",
    ".000000000001Ki, 2n"
  })
  void emitsWhatKubernetesEmits(String input, String expect) {
    assertThat(Quantities.canonical(input)).isEqualTo(expect);
    assertThat(Quantities.canonical("-" + input)).isEqualTo("-" + expect);
  }

  /** The forms a hook most often writes, and what the API server makes of them. */
  @ParameterizedTest
  @CsvSource({
    "0.5, 500m",
    "1000m, 1",
    "1024Mi, 1Gi",
    "1536Mi, 1536Mi",
    "1.5Gi, 1536Mi",
    "1073741824, 1073741824",
    "2048Ki, 2Mi",
    "100m, 100m",
    "2, 2",
    "1000, 1k",
    "128974848, 128974848",
    "129e6, 129e6",
    "123Mi, 123Mi"
  })
  void commonForms(String input, String expect) {
    assertThat(Quantities.canonical(input)).isEqualTo(expect);
  }

  @Test
  void aPodTemplateGetsEveryQuantityInStoredForm() throws Exception {
    ObjectNode template =
        (ObjectNode)
            Json.mapper()
                .readTree(
                    """
        {"metadata": {"labels": {"cpu": "0.5"}},
         "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "0.5", "memory": 1073741824},
                                                            "limits": {"cpu": "1000m", "memory": "1024Mi"}}}],
                  "initContainers": [{"name": "i", "resources": {"limits": {"cpu": "5n"}}}],
                  "resources": {"limits": {"memory": "2048Mi"}}, "overhead": {"cpu": "0.25"},
                  "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1000Mi"}},
                              {"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {
                                  "resources": {"requests": {"storage": "1.5Gi"}}}}}},
                              {"name": "w", "emptyDir": {"sizeLimit": "lots"}}]}}""");

    ObjectNode stored = Quantities.inPodTemplate(template);

    assertThat(stored.at("/spec/containers/0/resources").toString())
        .isEqualTo(
            "{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1073741824\"},\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}");
    assertThat(stored.at("/spec/initContainers/0/resources/limits/cpu").asText()).isEqualTo("1m");
    assertThat(stored.at("/spec/resources/limits/memory").asText()).isEqualTo("2Gi");
    assertThat(stored.at("/spec/overhead/cpu").asText()).isEqualTo("250m");
    assertThat(stored.at("/spec/volumes/0/emptyDir/sizeLimit").asText()).isEqualTo("1000Mi");
    assertThat(
            stored
                .at("/spec/volumes/1/ephemeral/volumeClaimTemplate/spec/resources/requests/storage")
                .asText())
        .isEqualTo("1536Mi");
    assertThat(stored.at("/spec/volumes/2/emptyDir/sizeLimit").asText())
        .as("left for the API server")
        .isEqualTo("lots");
    assertThat(stored.at("/metadata/labels/cpu").asText()).as("only quantities").isEqualTo("0.5");
    assertThat(template.at("/spec/containers/0/resources/requests/cpu").asText())
        .as("the input unchanged")
        .isEqualTo("0.5");
  }

  /**
   * TestQuantityRoundUp at the milli scale (9.01 and -9.01 are exact), and what the same rule does below it: a
   * value finer than a thousandth is rounded away from zero, and its text is no longer kept.
   */
  @ParameterizedTest
  @CsvSource({
    "9.01, 9010m",
    "-9.01, -9010m",
    "100m, 100m",
    "5n, 1m",
    "3.001n, 1m",
    "1.0001, 1001m",
    "-1.0001, -1001m",
    "1500u, 2m",
    "1Gi, 1Gi",
    "0.5, 500m"
  })
  void roundsResourceListValuesUpToAThousandth(String input, String expect) {
    assertThat(Quantities.canonicalInResourceList(input)).isEqualTo(expect);
  }
}
