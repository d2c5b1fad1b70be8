import { getDocumentProxy } from "unpdf";
import { toLines } from "../src/pipeline/extract/pdf_lines.ts";
const doc = await getDocumentProxy(Deno.readFileSync(Deno.args[0]!), { verbosity: 0 });
const page = await doc.getPage(+Deno.args[1]!);
const tc = await page.getTextContent();
for (const l of toLines(tc.items.filter((i: any) => "str" in i) as any)) console.log(l.y.toFixed(1), l.size.toFixed(1), l.text.slice(0, 50));
