package dev.metahooks.controllers.postgres.plan;

/** What the parameters Job sends: {@code body} to Patroni's {@code PATCH /config}, in Job {@code job}, named after it. */
public record ParameterPatch(String job, String body) {}
