import { extractPdf } from "/work/wt/pdf/src/pipeline/extract/pdf.ts";
const r = await extractPdf(Deno.readFileSync(Deno.args[0]!), "https://example.org/report.pdf");
console.log(r.status, r.reason, r.article.title, r.article.published, r.article.links);
console.log(r.article.markdown);
console.log(JSON.stringify(r.article.blocks.slice(0,3)));
