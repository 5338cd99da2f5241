package dev.metahooks.testing.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.ProjectCrds;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class CrdSchemaTest {
  /** A schema in the shape CRDs use, with a root object and a spec. */
  private static final CrdSchema WIDGET =
      CrdSchema.of(
          "example.com/v1",
          "Widget",
          yaml(
              """
      type: object
      properties:
        spec:
          type: object
          required: [size]
          properties:
            size: {type: integer, minimum: 1, maximum: 10}
            ratio: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 1}
            name: {type: string, minLength: 2, maxLength: 5, pattern: '^[a-z]+$'}
            mode: {type: string, enum: [fast, safe], default: safe}
            enabled: {type: boolean}
            port: {x-kubernetes-int-or-string: true}
            tags:
              type: array
              minItems: 1
              maxItems: 2
              items: {type: string}
            labels:
              type: object
              additionalProperties: {type: string}
            extra:
              type: object
              x-kubernetes-preserve-unknown-fields: true
              properties:
                known: {type: integer}
            note: {type: string, nullable: true}
            replicas: {type: integer, default: 1}
            resources:
              type: object
              default: {}
              properties:
                cpu: {type: string, default: 100m}
                memory: {type: string}
        status:
          type: object
          properties:
            ready: {type: boolean}
      """));

  private static JsonNode yaml(String text) {
    return Manifests.parse(text).get(0);
  }

  private static JsonNode widget(String spec) {
    return yaml(
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {a: b}\nspec:\n"
            + spec.indent(2));
  }

  private static List<String> errors(String spec) {
    return WIDGET.validate(widget(spec));
  }

  @Test
  void aValidObjectHasNoErrors() {
    assertThat(
            errors(
                """
        size: 3
        ratio: 0.5
        name: abc
        mode: fast
        enabled: true
        port: http
        tags: [a, b]
        labels: {x: y}
        extra: {known: 1, anything: {goes: [1, 2]}}
        note: null
        """))
        .isEmpty();
  }

  @Nested
  class Types {
    @Test
    void eachTypeIsChecked() {
      assertThat(errors("size: '3'\nratio: yes\nname: 12\nenabled: 'true'\ntags: a\nlabels: []"))
          .containsExactly(
              "$.spec.size: must be of type integer, got string \"3\"",
              "$.spec.ratio: must be of type number, got boolean true",
              "$.spec.name: must be of type string, got integer 12",
              "$.spec.enabled: must be of type boolean, got string \"true\"",
              "$.spec.tags: must be of type array, got string \"a\"",
              "$.spec.labels: must be of type object, got array");
    }

    @Test
    void anIntegerIsAWholeNumberWithoutAFraction() {
      assertThat(errors("size: 2.0"))
          .containsExactly("$.spec.size: must be of type integer, got number 2.0");
      assertThat(errors("size: 2\nratio: 1")).isEmpty();
    }

    @Test
    void intOrStringTakesEitherButNothingElse() {
      assertThat(errors("size: 1\nport: 8080")).isEmpty();
      assertThat(errors("size: 1\nport: http")).isEmpty();
      assertThat(errors("size: 1\nport: 1.5"))
          .containsExactly("$.spec.port: must be an integer or a string, got number 1.5");
      assertThat(errors("size: 1\nport: [80]"))
          .containsExactly("$.spec.port: must be an integer or a string, got array");
    }

    @Test
    void nullOnlyWhereNullable() {
      assertThat(errors("size: 1\nnote: null")).isEmpty();
      assertThat(errors("size: 1\nname: null"))
          .containsExactly("$.spec.name: must not be null (the schema is not nullable)");
    }
  }

  @Nested
  class Fields {
    @Test
    void unknownFieldsAreErrorsWithTheirPath() {
      assertThat(errors("size: 1\nsizes: 2\nresources: {cpu: 1m, gpu: 1}"))
          .containsExactly(
              "$.spec.sizes: unknown field (the schema does not declare it: the API server would drop it)",
              "$.spec.resources.gpu: unknown field (the schema does not declare it: the API server would drop it)");
    }

    @Test
    void unknownTopLevelFieldsAreErrorsButApiVersionKindAndMetadataAreImplied() {
      JsonNode object = widget("size: 1");
      ((com.fasterxml.jackson.databind.node.ObjectNode) object).put("spek", 1);
      assertThat(WIDGET.validate(object))
          .containsExactly(
              "$.spek: unknown field (the schema does not declare it: the API server would drop it)");
    }

    @Test
    void requiredFieldsMustBePresent() {
      assertThat(errors("name: abc")).containsExactly("$.spec.size: required field is missing");
    }

    @Test
    void additionalPropertiesSchemaChecksEveryValue() {
      assertThat(errors("size: 1\nlabels: {ok: v, 'app.kubernetes.io/name': 3}"))
          .containsExactly(
              "$.spec.labels['app.kubernetes.io/name']: must be of type string, got integer 3");
    }

    @Test
    void additionalPropertiesBooleanAllowsOrRefuses() {
      CrdSchema open = CrdSchema.of(yaml("{type: object, additionalProperties: true}"));
      CrdSchema closed = CrdSchema.of(yaml("{type: object, additionalProperties: false}"));
      assertThat(open.validate(yaml("{a: 1, b: {c: 2}}"))).isEmpty();
      assertThat(closed.validate(yaml("{a: 1}")))
          .containsExactly("$.a: unknown field (additionalProperties is false)");
    }

    @Test
    void preserveUnknownFieldsKeepsUnknownFieldsButChecksDeclaredOnes() {
      assertThat(errors("size: 1\nextra: {known: x, other: 1}"))
          .containsExactly("$.spec.extra.known: must be of type integer, got string \"x\"");
    }

    @Test
    void anObjectWithNeitherPropertiesNorPreserveTakesNoFields() {
      CrdSchema empty = CrdSchema.of(yaml("{type: object, properties: {spec: {type: object}}}"));
      assertThat(empty.validate(yaml("{spec: {a: 1}}")))
          .containsExactly(
              "$.spec.a: unknown field (the schema does not declare it: the API server would drop it)");
    }

    @Test
    void propertyCountsAreBounded() {
      CrdSchema bounded =
          CrdSchema.of(
              yaml(
                  "{type: object, minProperties: 1, maxProperties: 2,"
                      + " additionalProperties: {type: integer}}"));
      assertThat(bounded.validate(yaml("{}")))
          .containsExactly("$: must have at least 1 fields, got 0");
      assertThat(bounded.validate(yaml("{a: 1, b: 2, c: 3}")))
          .containsExactly("$: must have at most 2 fields, got 3");
    }
  }

  @Nested
  class Values {
    @Test
    void enumsAreExhaustive() {
      assertThat(errors("size: 1\nmode: quick"))
          .containsExactly("$.spec.mode: must be one of [\"fast\",\"safe\"], got \"quick\"");
    }

    @Test
    void enumsCompareNumbersByValue() {
      CrdSchema levels =
          CrdSchema.of(yaml("{type: object, properties: {level: {type: number, enum: [1, 2.5]}}}"));
      assertThat(levels.validate(yaml("{level: 1.0}"))).isEmpty();
      assertThat(levels.validate(yaml("{level: 2}"))).hasSize(1);
    }

    @Test
    void numbersRespectTheirBounds() {
      assertThat(errors("size: 0")).containsExactly("$.spec.size: must be at least 1, got 0");
      assertThat(errors("size: 11")).containsExactly("$.spec.size: must be at most 10, got 11");
      assertThat(errors("size: 10\nratio: 1")).isEmpty();
      assertThat(errors("size: 1\nratio: 0"))
          .containsExactly("$.spec.ratio: must be greater than 0, got 0");
    }

    @Test
    void multipleOf() {
      CrdSchema steps =
          CrdSchema.of(yaml("{type: object, properties: {n: {type: number, multipleOf: 0.5}}}"));
      assertThat(steps.validate(yaml("{n: 2.5}"))).isEmpty();
      assertThat(steps.validate(yaml("{n: 2.4}")))
          .containsExactly("$.n: must be a multiple of 0.5, got 2.4");
    }

    @Test
    void stringsRespectLengthAndPattern() {
      assertThat(errors("size: 1\nname: a"))
          .containsExactly("$.spec.name: must be at least 2 characters long, got 1");
      assertThat(errors("size: 1\nname: abcdef"))
          .containsExactly("$.spec.name: must be at most 5 characters long, got 6");
      assertThat(errors("size: 1\nname: aB"))
          .containsExactly("$.spec.name: must match the pattern ^[a-z]+$, got \"aB\"");
    }

    @Test
    void lengthCountsCharactersNotUtf16Units() {
      CrdSchema two =
          CrdSchema.of(yaml("{type: object, properties: {s: {type: string, maxLength: 2}}}"));
      assertThat(two.validate(yaml("{s: '\uD83D\uDE00\uD83D\uDE00'}"))).isEmpty();
      assertThat(two.validate(yaml("{s: 'abc'}")))
          .containsExactly("$.s: must be at most 2 characters long, got 3");
    }

    @Test
    void patternsMatchAnywhereUnlessAnchored() {
      CrdSchema digits =
          CrdSchema.of(yaml("{type: object, properties: {s: {type: string, pattern: '[0-9]'}}}"));
      assertThat(digits.validate(yaml("{s: ab1c}"))).isEmpty();
    }

    @Test
    void arraysRespectTheirSizeAndItemSchema() {
      assertThat(errors("size: 1\ntags: []"))
          .containsExactly("$.spec.tags: must have at least 1 items, got 0");
      assertThat(errors("size: 1\ntags: [a, b, c]"))
          .containsExactly("$.spec.tags: must have at most 2 items, got 3");
      assertThat(errors("size: 1\ntags: [a, 2]"))
          .containsExactly("$.spec.tags[1]: must be of type string, got integer 2");
    }

    @Test
    void listTypesSetAndMapRefuseDuplicates() {
      CrdSchema lists =
          CrdSchema.of(
              yaml(
                  """
          type: object
          properties:
            set: {type: array, x-kubernetes-list-type: set, items: {type: string}}
            map:
              type: array
              x-kubernetes-list-type: map
              x-kubernetes-list-map-keys: [name]
              items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
          """));
      assertThat(
              lists.validate(yaml("{set: [a, b], map: [{name: a, port: 1}, {name: b, port: 1}]}")))
          .isEmpty();
      assertThat(
              lists.validate(yaml("{set: [a, a], map: [{name: a, port: 1}, {name: a, port: 2}]}")))
          .containsExactly(
              "$.set[1]: duplicate item \"a\"", "$.map[1]: duplicate entry with keys name=\"a\"");
    }

    @Test
    void formats() {
      CrdSchema formats =
          CrdSchema.of(
              yaml(
                  """
          type: object
          properties:
            at: {type: string, format: date-time}
            day: {type: string, format: date}
            id: {type: string, format: uuid}
            data: {type: string, format: byte}
            v4: {type: string, format: ipv4}
            v6: {type: string, format: ipv6}
            host: {type: string, format: hostname}
            other: {type: string, format: something-else}
          """));
      assertThat(
              formats.validate(
                  yaml(
                      """
          {at: '2026-01-01T00:00:00Z', day: '2026-01-31', id: 123e4567-e89b-12d3-a456-426614174000,
           data: aGVsbG8=, v4: 10.0.0.1, v6: 'fd00::1', host: db.example.com, other: anything}
          """)))
          .isEmpty();
      assertThat(formats.validate(yaml("{v6: '::ffff:10.0.0.1'}"))).isEmpty();
      assertThat(
              formats.validate(
                  yaml(
                      """
          {at: '2026-01-01 00:00', day: '2026-02-30', id: not-a-uuid, data: 'a=b', v4: 10.0.0.256, v6: 'fd00::1::2',
           host: -bad-}
          """)))
          .containsExactly(
              "$.at: must be in the date-time format, got \"2026-01-01 00:00\"",
              "$.day: must be in the date format, got \"2026-02-30\"",
              "$.id: must be in the uuid format, got \"not-a-uuid\"",
              "$.data: must be in the byte format, got \"a=b\"",
              "$.v4: must be in the ipv4 format, got \"10.0.0.256\"",
              "$.v6: must be in the ipv6 format, got \"fd00::1::2\"",
              "$.host: must be in the hostname format, got \"-bad-\"");
    }

    @Test
    void combinationsConstrainValuesWithoutDeclaringFields() {
      CrdSchema either =
          CrdSchema.of(
              yaml(
                  """
          type: object
          properties:
            source:
              type: object
              properties:
                url: {type: string}
                path: {type: string}
              oneOf:
              - required: [url]
              - required: [path]
            size:
              x-kubernetes-int-or-string: true
              anyOf: [{type: integer}, {type: string, pattern: '^[0-9]+Gi$'}]
            name:
              type: string
              allOf: [{minLength: 1}, {maxLength: 3}]
              not: {enum: [bad]}
          """));
      assertThat(either.validate(yaml("{source: {url: u}, size: 5Gi, name: ok}"))).isEmpty();
      assertThat(either.validate(yaml("{source: {url: u, path: p}, size: 5G, name: bad}")))
          .containsExactly(
              "$.source: must match exactly one of the oneOf schemas, matches 2",
              "$.size: must match at least one of the anyOf schemas; the first says: "
                  + "[$.size: must be of type integer, got string \"5G\"]",
              "$.name: must not match the schema {\"enum\":[\"bad\"]}");
      assertThat(either.validate(yaml("{source: {}, name: long}")))
          .containsExactly(
              "$.source: must match exactly one of the oneOf schemas, matches 0",
              "$.name: must be at most 3 characters long, got 4");
    }
  }

  @Nested
  class Defaults {
    @Test
    void absentFieldsGetTheirDefaultsRecursively() {
      JsonNode defaulted = WIDGET.withDefaults(widget("size: 2"));
      assertThat(defaulted.get("spec"))
          .isEqualTo(yaml("{size: 2, mode: safe, replicas: 1, resources: {cpu: 100m}}"));
    }

    @Test
    void presentValuesAreKept() {
      JsonNode defaulted =
          WIDGET.withDefaults(widget("size: 2\nmode: fast\nresources: {cpu: 1, memory: 1Gi}"));
      assertThat(defaulted.get("spec"))
          .isEqualTo(yaml("{size: 2, mode: fast, resources: {cpu: 1, memory: 1Gi}, replicas: 1}"));
    }

    @Test
    void aNullWhereNullIsNotAllowedIsDefaulted() {
      assertThat(WIDGET.withDefaults(widget("size: 2\nmode: null")).at("/spec/mode").asText())
          .isEqualTo("safe");
    }

    @Test
    void defaultsApplyInListsAndMaps() {
      CrdSchema schema =
          CrdSchema.of(
              yaml(
                  """
          type: object
          properties:
            ports:
              type: array
              items: {type: object, properties: {port: {type: integer}, protocol: {type: string, default: TCP}}}
            limits:
              type: object
              additionalProperties: {type: object, properties: {max: {type: integer, default: 5}}}
          """));
      assertThat(schema.withDefaults(yaml("{ports: [{port: 80}], limits: {a: {}}}")))
          .isEqualTo(yaml("{ports: [{port: 80, protocol: TCP}], limits: {a: {max: 5}}}"));
    }

    @Test
    void validationSeesTheDefaultedObject() {
      CrdSchema schema =
          CrdSchema.of(
              yaml(
                  "{type: object, required: [mode], properties: {mode: {type: string, default: safe}}}"));
      assertThat(schema.validate(yaml("{}"))).isEmpty();
    }

    @Test
    void theInputIsLeftAlone() {
      JsonNode object = widget("size: 2");
      WIDGET.withDefaults(object);
      assertThat(object.path("spec").has("mode")).isFalse();
    }
  }

  @Nested
  class Identity {
    @Test
    void apiVersionKindAndNameAreChecked() {
      JsonNode object =
          yaml("{apiVersion: example.com/v2, kind: Gadget, metadata: {}, spec: {size: 1}}");
      assertThat(WIDGET.validate(object))
          .containsExactly(
              "$.apiVersion: must be example.com/v1, got \"example.com/v2\"",
              "$.kind: must be Widget, got \"Gadget\"",
              "$.metadata.name: required field is missing");
    }

    @Test
    void metadataIsNotPrunedByTheSchema() {
      CrdSchema withMetadata =
          CrdSchema.of(
              "example.com/v1",
              "Widget",
              yaml("{type: object, properties: {metadata: {type: object}, spec: {type: object}}}"));
      assertThat(
              withMetadata.validate(
                  yaml(
                      "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, labels: {a: b}}}")))
          .isEmpty();
    }

    @Test
    void embeddedResourcesImplyTheirIdentityFields() {
      CrdSchema schema =
          CrdSchema.of(
              yaml(
                  """
          type: object
          properties:
            template:
              type: object
              x-kubernetes-embedded-resource: true
              x-kubernetes-preserve-unknown-fields: true
            strict:
              type: object
              x-kubernetes-embedded-resource: true
              properties: {spec: {type: object, properties: {a: {type: integer}}}}
          """));
      assertThat(
              schema.validate(
                  yaml(
                      """
          {template: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {x: 1}},
           strict: {apiVersion: v1, kind: ConfigMap, metadata: {labels: {a: b}}, spec: {a: 1}}}
          """)))
          .isEmpty();
      assertThat(
              schema.validate(
                  yaml("{template: {metadata: {}}, strict: {apiVersion: v1, kind: X, data: {}}}")))
          .containsExactly(
              "$.template.apiVersion: required field is missing (the object is an embedded resource)",
              "$.template.kind: required field is missing (the object is an embedded resource)",
              "$.strict.data: unknown field (the schema does not declare it: the API server would drop it)");
    }
  }

  @Nested
  class TheSchemaItself {
    @Test
    void aMisspeltKeywordIsRefused() {
      assertThatThrownBy(
              () ->
                  CrdSchema.of(
                      yaml("{type: object, properties: {a: {type: string, requried: [x]}}}")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("openAPIV3Schema.properties.a: unknown keyword 'requried'");
    }

    @Test
    void everyFieldNeedsAType() {
      assertThatThrownBy(
              () -> CrdSchema.of(yaml("{type: object, properties: {a: {description: untyped}}}")))
          .hasMessageContaining("openAPIV3Schema.properties.a: no type");
      CrdSchema.of(
          yaml("{type: object, properties: {a: {x-kubernetes-preserve-unknown-fields: true}}}"));
    }

    @Test
    void theRootIsAnObject() {
      assertThatThrownBy(() -> CrdSchema.of(yaml("{type: string}")))
          .hasMessageContaining("root must have type object");
    }

    @Test
    void arraysNeedItems() {
      assertThatThrownBy(() -> CrdSchema.of(yaml("{type: object, properties: {a: {type: array}}}")))
          .hasMessageContaining("openAPIV3Schema.properties.a: an array needs items");
    }

    @Test
    void defaultsMustFitTheirSchema() {
      assertThatThrownBy(
              () ->
                  CrdSchema.of(
                      yaml(
                          "{type: object, properties: {a: {type: integer, minimum: 1, default: 0}}}")))
          .hasMessageContaining(
              "openAPIV3Schema.properties.a: invalid default: default: must be at least 1, got 0");
    }

    @Test
    void badPatternsAreRefused() {
      assertThatThrownBy(
              () ->
                  CrdSchema.of(
                      yaml("{type: object, properties: {a: {type: string, pattern: '('}}}")))
          .hasMessageContaining("openAPIV3Schema.properties.a.pattern: not a regular expression");
    }
  }

  @Nested
  class FromTheProjectsCrds {
    @Test
    void forKindFindsTheServedVersion() {
      CrdSchema hello = ProjectCrds.forKind("example.com/v1", "HelloWorld");
      assertThat(
              hello.validate(
                  yaml(
                      "{apiVersion: example.com/v1, kind: HelloWorld, metadata: {name: n},"
                          + " spec: {who: You}}")))
          .isEmpty();
      assertThat(
              hello.validate(
                  yaml(
                      "{apiVersion: example.com/v1, kind: HelloWorld, metadata: {name: n},"
                          + " spec: {whom: You}}")))
          .containsExactly(
              "$.spec.whom: unknown field (the schema does not declare it: the API server would drop it)");
    }

    @Test
    void unknownKindsAreReported() {
      assertThatThrownBy(() -> ProjectCrds.forKind("example.com/v9", "HelloWorld"))
          .hasMessageContaining("no CRD given serves")
          .hasMessageContaining("serves example.com/v9 HelloWorld");
      assertThat(ProjectCrds.knows(yaml("{apiVersion: v1, kind: Pod}"))).isFalse();
      assertThat(ProjectCrds.knows(yaml("{apiVersion: example.com/v1, kind: HelloWorld}")))
          .isTrue();
    }

    @Test
    void assertValidListsEveryError() {
      CrdSchema hello = ProjectCrds.forKind("example.com/v1", "HelloWorld");
      assertThatThrownBy(
              () ->
                  hello.assertValid(
                      yaml(
                          "{apiVersion: example.com/v1, kind: HelloWorld, metadata: {name: n}, spec: {who: 1, x: 2}}")))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("HelloWorld n does not fit the schema of example.com/v1 HelloWorld")
          .hasMessageContaining("$.spec.who: must be of type string, got integer 1")
          .hasMessageContaining("$.spec.x: unknown field");
    }
  }
}
