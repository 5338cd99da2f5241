package dev.metahooks.controllers.helloworld;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link HelloWorldScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class HelloWorldKubeIT extends HelloWorldScenarioTest {}
