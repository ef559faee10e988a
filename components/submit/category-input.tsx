"use client";
import { useState } from "react";
import { Plus, X } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { MAX_CATEGORIES, MAX_CATEGORY_LENGTH, TOO_MANY_CATEGORIES } from "@/lib/validations/server-submission";

/** A tag list: Enter or the add button adds (commas split several), duplicates and a sixth are refused with a toast. */
export function CategoryInput({
  id,
  value,
  onChange,
  describedBy,
  invalid,
}: {
  id: string;
  value: string[];
  onChange: (next: string[]) => void;
  describedBy?: string;
  invalid?: boolean;
}) {
  const [draft, setDraft] = useState("");

  function add() {
    const next = [...value];
    for (const raw of draft.split(",")) {
      const name = raw.trim().replace(/\s+/g, " ");
      if (!name) continue;
      if (next.some((c) => c.toLowerCase() === name.toLowerCase())) {
        toast.error("Category already exists");
        continue;
      }
      if (next.length >= MAX_CATEGORIES) {
        toast.error(TOO_MANY_CATEGORIES);
        break;
      }
      next.push(name);
    }
    onChange(next);
    setDraft("");
  }

  return (
    <div className="grid gap-2">
      <div className="flex gap-2">
        <Input
          id={id}
          value={draft}
          maxLength={MAX_CATEGORY_LENGTH * MAX_CATEGORIES}
          placeholder="AI, Web3, Finance"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            // Enter adds a category here; it must not submit the whole form.
            e.preventDefault();
            if (draft.trim()) add();
          }}
        />
        <Button type="button" variant="outline" onClick={add} disabled={!draft.trim()} aria-label="Add category">
          <Plus /> Add
        </Button>
      </div>
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Selected categories">
          {value.map((category) => (
            <li key={category.toLowerCase()}>
              <Badge variant="secondary" className="gap-1 py-1 pr-1 pl-2.5 text-sm">
                {category}
                <button
                  type="button"
                  className="inline-flex size-5 items-center justify-center rounded-sm text-muted-foreground hover:bg-background hover:text-foreground"
                  aria-label={`Remove ${category}`}
                  onClick={() => onChange(value.filter((c) => c !== category))}
                >
                  <X className="size-3.5" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
