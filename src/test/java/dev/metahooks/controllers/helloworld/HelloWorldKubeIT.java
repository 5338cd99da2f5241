package dev.metahooks.controllers.helloworld;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** {@link HelloWorldScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
@Execution(ExecutionMode.CONCURRENT)
class HelloWorldKubeIT extends HelloWorldScenarioTest {}
