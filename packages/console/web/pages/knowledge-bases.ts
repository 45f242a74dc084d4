/**
 * Knowledge bases (PLATFORM.md §16): the list, and one knowledge base's search with hits whose
 * `Open citation` resolves the citation (GET …/citations/{chunkId}) and shows the passage in its
 * document: name, headings, pages, revision. A citation is deep-linkable (`?citation=<chunkId>`).
 */
import { api, errorText, get, type Page } from "../api.js";
import { alertBox, append, guarded, h, heading, replace, statusLine } from "../dom.js";
import { BASE } from "../router.js";

interface KnowledgeBase {
  id: string;
  name: string;
  description: string | null;
  embeddingModel: string;
  createdAt: string;
}

interface Hit {
  hitId: string;
  documentId: string;
  documentName: string;
  chunkId: string;
  content: string;
  matchedSpan?: string | null;
  pageStart?: number | null;
  pageEnd?: number | null;
  headingPath?: string[];
  score: number;
}

interface KnowledgeDocument {
  id: string;
  name: string;
  currentVersion: { id: string } | null;
  servingVersion: { id: string } | null;
}

interface Citation {
  chunkId: string;
  documentVersionId: string;
  text: string | null;
  textStatus: string;
  pageStart?: number | null;
  pageEnd?: number | null;
  headings?: string[];
  isCurrentVersion: boolean;
}

export async function renderKnowledgeBases(main: HTMLElement): Promise<void> {
  replace(main, heading("Knowledge bases"));
  await guarded(main, async () => {
    const page = await get<Page<KnowledgeBase>>("/v1/knowledge-bases?size=100");
    if (page.content.length === 0) {
      main.appendChild(h("p", { role: "status" }, "No knowledge bases yet."));
      return;
    }
    main.appendChild(
      h(
        "ul",
        { class: "cards", "aria-label": "Knowledge bases" },
        page.content.map((kb) =>
          h(
            "li",
            { class: "card" },
            h("a", { href: `${BASE}/knowledge-bases/${encodeURIComponent(kb.id)}` }, kb.name),
            kb.description ? h("p", {}, kb.description) : null,
            h("p", { class: "hint" }, kb.embeddingModel),
          ),
        ),
      ),
    );
  });
}

function pages(start: number | null | undefined, end: number | null | undefined): string | null {
  if (start === null || start === undefined) return null;
  return end !== null && end !== undefined && end !== start ? `pages ${start}–${end}` : `page ${start}`;
}

/** The passage with its closest-matching part marked, when the API says which part. */
function passage(content: string, matched: string | null | undefined): HTMLElement {
  const at = matched ? content.indexOf(matched) : -1;
  if (!matched || at < 0) return h("p", { class: "passage" }, content);
  return h(
    "p",
    { class: "passage" },
    content.slice(0, at),
    h("mark", {}, matched),
    content.slice(at + matched.length),
  );
}

export async function renderKnowledgeBase(main: HTMLElement, [id]: string[]): Promise<void> {
  replace(main, heading("Knowledge base"));
  const kbPath = `/v1/knowledge-bases/${encodeURIComponent(id ?? "")}`;
  await guarded(main, async () => {
    const kb = await get<KnowledgeBase>(kbPath);
    (main.querySelector("h1") as HTMLElement).textContent = kb.name;
    const query = h("input", { id: "kb-search", type: "search", name: "query", required: true });
    const status = statusLine();
    const hits = h("div", {});
    const citation = h("section", {
      "aria-label": "Citation",
      class: "card citation",
      hidden: true,
      tabindex: "-1",
    });
    const names = new Map<string, string>();
    /** A deep-linked citation has no hit to name its document: the revision's document, looked up. */
    const documentName = async (versionId: string): Promise<string> => {
      const documents = await get<Page<KnowledgeDocument>>(`${kbPath}/documents?size=100`);
      const found = documents.content.find(
        (document) => document.currentVersion?.id === versionId || document.servingVersion?.id === versionId,
      );
      return found?.name ?? "Document";
    };
    const openCitation = async (chunkId: string) => {
      replace(citation, statusLine("Resolving the citation…"));
      citation.hidden = false;
      try {
        const cited = (await api<Citation>("GET", `${kbPath}/citations/${encodeURIComponent(chunkId)}`)).body;
        const where = [pages(cited.pageStart, cited.pageEnd), ...(cited.headings ?? [])]
          .filter(Boolean)
          .join(" › ");
        replace(
          citation,
          h("h2", {}, "Citation"),
          h(
            "article",
            { class: "document" },
            h("h3", {}, names.get(chunkId) ?? (await documentName(cited.documentVersionId))),
            where ? h("p", { class: "hint" }, where) : null,
            h(
              "p",
              { class: "hint" },
              `Revision ${cited.documentVersionId}${cited.isCurrentVersion ? " (current)" : " (an older revision)"}`,
            ),
            cited.text === null
              ? h("p", { role: "status" }, `The passage was withdrawn (${cited.textStatus}).`)
              : h("blockquote", { class: "cited" }, h("mark", {}, cited.text)),
          ),
        );
        citation.focus();
      } catch (error) {
        replace(citation, alertBox(errorText(error)));
      }
    };
    const search = async () => {
      status.textContent = "Searching…";
      replace(hits);
      try {
        const result = (
          await api<{ hits: Hit[]; degraded?: string }>("POST", `${kbPath}/search`, { query: query.value })
        ).body;
        status.textContent = `${result.hits.length} hit${result.hits.length === 1 ? "" : "s"}${result.degraded ? ` (${result.degraded})` : ""}.`;
        for (const hit of result.hits) names.set(hit.chunkId, hit.documentName);
        hits.appendChild(
          h(
            "ol",
            { class: "hits", "aria-label": "Hits" },
            result.hits.map((hit) => {
              const href = `${BASE}/knowledge-bases/${encodeURIComponent(kb.id)}?citation=${encodeURIComponent(hit.chunkId)}`;
              const link = h("a", { href }, "Open citation");
              link.addEventListener("click", (event) => {
                event.preventDefault();
                history.replaceState(null, "", href);
                void openCitation(hit.chunkId);
              });
              const where = [pages(hit.pageStart, hit.pageEnd), ...(hit.headingPath ?? [])]
                .filter(Boolean)
                .join(" › ");
              return h(
                "li",
                { class: "hit" },
                h(
                  "p",
                  { class: "hit-title" },
                  h("strong", {}, hit.documentName),
                  where ? ` · ${where}` : "",
                  ` · score ${hit.score.toFixed(3)}`,
                ),
                passage(hit.content, hit.matchedSpan),
                link,
              );
            }),
          ),
        );
      } catch (error) {
        status.textContent = "";
        hits.appendChild(alertBox(errorText(error)));
      }
    };
    const form = h(
      "form",
      { role: "search", class: "filters", "aria-label": `Search ${kb.name}` },
      h("div", { class: "field grow" }, h("label", { for: "kb-search" }, "Search"), query),
      h("button", { type: "submit" }, "Search"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void search();
    });
    append(
      main,
      kb.description ? h("p", {}, kb.description) : null,
      form,
      status,
      h("div", { class: "kb-results" }, hits, citation),
      h("p", {}, h("a", { href: `${BASE}/knowledge-bases` }, "All knowledge bases")),
    );
    const linked = new URLSearchParams(location.search).get("citation");
    if (linked) await openCitation(linked);
  });
}
