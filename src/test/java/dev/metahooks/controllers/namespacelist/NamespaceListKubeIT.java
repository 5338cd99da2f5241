package dev.metahooks.controllers.namespacelist;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link NamespaceListScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class NamespaceListKubeIT extends NamespaceListScenarioTest {}
