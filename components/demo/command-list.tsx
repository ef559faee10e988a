import { Fragment, type ReactNode } from "react";
import { commands } from "@/lib/demo/script";

/** The demo's commands in a sentence: "a", "b" and "c". */
export function CommandList({
  conjunction,
  render,
}: {
  conjunction: "and" | "or";
  render: (text: string) => ReactNode;
}) {
  return commands.map((command, i) => (
    <Fragment key={command.id}>
      {i > 0 && (i === commands.length - 1 ? ` ${conjunction} ` : ", ")}
      {render(command.text)}
    </Fragment>
  ));
}
