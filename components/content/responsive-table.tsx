import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";

type Props = {
  /** Names the table for screen readers and the accordion group on phones. */
  caption: string;
  columns: string[];
  /** One array per row, in column order; the first cell names the row. */
  rows: React.ReactNode[][];
};

/**
 * A real table from the md breakpoint up. Below it, a wide table would scroll sideways or squeeze into
 * unreadable columns, so each row becomes an accordion item: the first cell is the trigger and the other
 * cells appear as label/value pairs. Both are rendered on the server; CSS shows one of them.
 */
export function ResponsiveTable({ caption, columns, rows }: Props) {
  return (
    <div className="my-6" data-testid="responsive-table">
      <div className="hidden overflow-x-auto rounded-lg border md:block">
        <table>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) =>
                  c === 0 ? (
                    <th key={c} scope="row" className="bg-transparent align-top font-medium">
                      {cell}
                    </th>
                  ) : (
                    <td key={c}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {/* Radix renders each trigger inside an <h3>; drop the prose margins long-form pages give headings. */}
      <div role="group" aria-label={caption} className="rounded-lg border px-4 md:hidden [&_h3]:my-0">
        <Accordion type="multiple">
          {rows.map((row, r) => (
            <AccordionItem key={r} value={`row-${r}`}>
              <AccordionTrigger className="text-[15px]">{row[0]}</AccordionTrigger>
              <AccordionContent>
                <dl className="space-y-3">
                  {row.slice(1).map((cell, c) => (
                    <div key={c}>
                      <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                        {columns[c + 1]}
                      </dt>
                      <dd className="mt-0.5 text-foreground/90">{cell}</dd>
                    </div>
                  ))}
                </dl>
              </AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </div>
    </div>
  );
}
