package dev.metahooks.controllers.secretpropagation;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link SecretPropagationScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class SecretPropagationKubeIT extends SecretPropagationScenarioTest {}
