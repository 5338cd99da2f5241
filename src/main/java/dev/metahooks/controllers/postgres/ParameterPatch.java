package dev.metahooks.controllers.postgres;

/** What the parameters Job sends: {@code body} to Patroni's {@code PATCH /config}, in Job {@code job}, named after it. */
record ParameterPatch(String job, String body) {}
