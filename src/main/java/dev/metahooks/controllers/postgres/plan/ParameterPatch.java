package dev.metahooks.controllers.postgres.plan;

/**
 * What the parameters Job sends: {@code body} to Patroni's {@code PATCH /config}, in Job {@code job}, named after it;
 * {@code expected}, the settings (a JSON object) it then reads back on every member.
 */
public record ParameterPatch(String job, String body, String expected) {}
