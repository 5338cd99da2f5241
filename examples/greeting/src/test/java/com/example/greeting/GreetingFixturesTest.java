package com.example.greeting;

import dev.metahooks.testing.GoldenFixtures;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every src/test/resources/fixtures/greeting/sync/<case>.request.json is answered with <case>.response.json, in
 * process, through the offline CLI and over HTTP; every child passes the Kubernetes schema check. New case: write
 * the request, run `mvn test -Dfixtures.update=true`, read the response it wrote, commit both.
 */
class GreetingFixturesTest {
  @TestFactory
  Stream<DynamicNode> fixtures() {
    return GoldenFixtures.of(GreetingController.controller())
        .in(Path.of("src/test/resources/fixtures"))
        .crds(Path.of("k8s/greetings.example.com.yaml"))
        .tests();
  }
}
