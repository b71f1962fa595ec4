package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the README a front page: short, and every relative link in it, in CONTRIBUTING.md and in
 * docs/ leads to a file that exists (and, for a link to a heading, to a heading that exists).
 */
class ReadmeLinksTest {
  private static final Path REPOSITORY = Path.of("..");
  private static final int README_MAX_LINES = 300;

  private static final Pattern FENCED_BLOCK = Pattern.compile("(?ms)^```.*?^```[^\\n]*$");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");

  @TempDir Path scratch;

  @Test
  void when_readmeIsRead_then_itHasAtMost300Lines() throws IOException {
    List<String> lines = Files.readAllLines(REPOSITORY.resolve("README.md"));

    assertThat(lines.size())
        .as("lines of README.md, the front page; move detail to docs/ (see CONTRIBUTING.md)")
        .isLessThanOrEqualTo(README_MAX_LINES);
  }

  @Test
  void when_readmeAndDocsAreRead_then_everyRelativeLinkResolves() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(REPOSITORY.resolve("README.md"));
    pages.add(REPOSITORY.resolve("CONTRIBUTING.md"));
    try (Stream<Path> docs = Files.walk(REPOSITORY.resolve("docs"))) {
      docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
    }

    assertThat(pages).hasSizeGreaterThan(2);
    assertThat(brokenLinks(pages)).isEmpty();
  }

  @Test
  void when_aLinkLeadsNowhere_then_itIsReported() throws IOException {
    // given: a page linking to a file that exists, one that does not, and a missing heading
    Files.writeString(scratch.resolve("other.md"), "# Other\n\n## A heading: here\n");
    Path page = scratch.resolve("page.md");
    Files.writeString(
        page,
        String.join(
            "\n",
            "[fine](other.md) [fine too](other.md#a-heading-here) [web](https://example.org/x)",
            "[gone](missing.md) [no heading](other.md#nowhere) [self](#title)",
            "```",
            "[inside a code block](not-checked.md)",
            "```",
            "# Title",
            ""));

    // when
    List<String> broken = brokenLinks(List.of(page));

    // then
    assertThat(broken)
        .containsExactly(
            page + ": missing.md (no such file)", page + ": other.md#nowhere (no such heading)");
  }

  /** Each relative link of the pages that leads to no file or no heading, as "page: link (why)". */
  private static List<String> brokenLinks(List<Path> pages) throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      String text = FENCED_BLOCK.matcher(Files.readString(page)).replaceAll("");
      Matcher link = LINK.matcher(text);
      while (link.find()) {
        String target = link.group(1);
        if (SCHEME.matcher(target).find()) {
          continue;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.isRegularFile(resolved)) {
          broken.add(page + ": " + target + " (no such file)");
        } else if (hash >= 0
            && resolved.toString().endsWith(".md")
            && !headingAnchors(resolved).contains(target.substring(hash + 1))) {
          broken.add(page + ": " + target + " (no such heading)");
        }
      }
    }
    return broken;
  }

  /** The anchors a Markdown renderer gives the page's headings: lower case, spaces as hyphens. */
  private static Set<String> headingAnchors(Path page) throws IOException {
    String text = FENCED_BLOCK.matcher(Files.readString(page)).replaceAll("");
    return HEADING
        .matcher(text)
        .results()
        .map(
            heading ->
                heading
                    .group(1)
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-'))
        .collect(Collectors.toSet());
  }
}
