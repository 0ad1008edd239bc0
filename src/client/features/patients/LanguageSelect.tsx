// Preferred language: a BCP 47 tag stored, its name shown (Intl.DisplayNames, in English). A
// searchable list of common languages; a tag typed that is not listed is kept as typed.
import { Select } from '@mantine/core';
import { useMemo } from 'react';

const COMMON = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'pt-BR',
  'nl',
  'pl',
  'ru',
  'uk',
  'tr',
  'ar',
  'fa',
  'hi',
  'bn',
  'ur',
  'zh',
  'ja',
  'ko',
  'vi',
  'tl',
  'sw',
  'am',
  'so',
  'yo',
  'ha',
  'el',
  'he',
  'ro',
];

const names = new Intl.DisplayNames(['en'], { type: 'language' });

/** "pt-BR" -> "Brazilian Portuguese"; a tag without a name shows as itself. */
export function languageName(tag: string | null | undefined): string | null {
  if (!tag) return null;
  try {
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

interface Props {
  value?: unknown;
  onChange?: (value: string | null) => void;
  error?: unknown;
  label?: string;
}

export function LanguageSelect({ value, onChange, error, label = 'Preferred Language' }: Props) {
  const current = typeof value === 'string' && value ? value : null;
  const data = useMemo(() => {
    const tags = current && !COMMON.includes(current) ? [current, ...COMMON] : COMMON;
    return tags
      .map((tag) => ({ value: tag, label: languageName(tag) ?? tag }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, [current]);
  return (
    <Select
      label={label}
      placeholder="Select a language"
      searchable
      clearable
      data={data}
      value={current}
      onChange={(v) => onChange?.(v)}
      error={error as React.ReactNode}
      nothingFoundMessage="No language of that name"
    />
  );
}
