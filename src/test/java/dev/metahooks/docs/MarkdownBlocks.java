package dev.metahooks.docs;

import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the project's Markdown pages as the tests that run their examples need them: a page, the section under a
 * heading, the fenced blocks of one language, the headings and their anchors. Lines inside a fence are never taken
 * for headings (a shell comment {@code # ...} is not one).
 */
public final class MarkdownBlocks {
  private static final Pattern HEADING = Pattern.compile("^(#{1,6}) (.+?)\\s*$");

  private MarkdownBlocks() {}

  /** A page of the project, by its path from the project's root ({@code "docs/postgrescluster/spec.md"}). */
  public static String page(String path) {
    Path file = Resources.projectDir().resolve(path);
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** Every page under the directory at {@code path} ({@code "docs/postgrescluster"}), in name order, as one text. */
  public static String pages(String path) {
    try (var files = Files.list(Resources.projectDir().resolve(path))) {
      StringBuilder text = new StringBuilder();
      for (Path file : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
        text.append(Files.readString(file)).append('\n');
      }
      return text.toString();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /**
   * The section under the heading titled {@code title} (any level), from its heading line to the next heading of
   * the same or a higher level: its subsections are part of it. Fails, naming the title, when there is none.
   */
  public static String section(String text, String title) {
    String[] lines = text.split("\n", -1);
    int start = -1;
    int level = 0;
    boolean fenced = false;
    StringBuilder section = new StringBuilder();
    for (String line : lines) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      }
      Matcher heading = fenced || line.startsWith("```") ? null : HEADING.matcher(line);
      if (heading != null && heading.matches()) {
        int headingLevel = heading.group(1).length();
        if (start >= 0 && headingLevel <= level) {
          break;
        }
        if (start < 0 && heading.group(2).equals(title)) {
          start = 0;
          level = headingLevel;
        }
      }
      if (start >= 0) {
        section.append(line).append('\n');
      }
    }
    if (start < 0) {
      throw new AssertionError("no heading \"" + title + "\"");
    }
    return section.toString();
  }

  /** The contents of every block fenced as {@code language} ({@code yaml}, {@code sh}, {@code java}), in order. */
  public static List<String> blocks(String text, String language) {
    Matcher block =
        Pattern.compile("```" + Pattern.quote(language) + "\n(.*?)```", Pattern.DOTALL)
            .matcher(text);
    List<String> blocks = new ArrayList<>();
    while (block.find()) {
      blocks.add(block.group(1));
    }
    return blocks;
  }

  /** The blocks of {@code language} in the section under {@code title} of the page at {@code path}. */
  public static List<String> blocks(String path, String title, String language) {
    return blocks(section(page(path), title), language);
  }

  /** The first block of {@code language} in that section; fails when it has none. */
  public static String first(String path, String title, String language) {
    List<String> blocks = blocks(path, title, language);
    if (blocks.isEmpty()) {
      throw new AssertionError("no " + language + " block under \"" + title + "\" in " + path);
    }
    return blocks.get(0);
  }

  /** The titles of the page's headings, in order, fenced lines left out. */
  public static List<String> headings(String text) {
    List<String> titles = new ArrayList<>();
    boolean fenced = false;
    for (String line : text.split("\n")) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher heading = HEADING.matcher(line);
      if (!fenced && heading.matches()) {
        titles.add(heading.group(2));
      }
    }
    return titles;
  }

  /**
   * The anchor a heading gets where the pages are read (GitHub's rule): lower case, every character but letters,
   * digits, spaces, hyphens and underscores dropped, spaces turned into hyphens.
   */
  public static String anchor(String title) {
    return title
        .strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N} _-]", "")
        .replace(' ', '-');
  }
}
