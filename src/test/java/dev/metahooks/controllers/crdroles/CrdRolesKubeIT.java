package dev.metahooks.controllers.crdroles;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link CrdRolesScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class CrdRolesKubeIT extends CrdRolesScenarioTest {}
