import type { ReactNode } from 'react';

export interface PageProps {
  /** The page's heading, shown in the toolbar; focused after each navigation. */
  title: string;
  /** Toolbar content at the inline start (a back button) and end (a language picker). */
  start?: ReactNode;
  end?: ReactNode;
  children: ReactNode;
  /** Sticky bottom area for the primary action, above the safe-area inset. */
  footer?: ReactNode;
  className?: string;
}

/** A mobile-style page: toolbar header, scrolling content, optional sticky footer. */
export function Page({ title, start, end, children, footer, className }: PageProps) {
  return (
    <div className={className ? `sg-page ${className}` : 'sg-page'}>
      <header className="sg-toolbar">
        <div className="sg-toolbar__start">{start}</div>
        <h1 className="sg-toolbar__title" tabIndex={-1} data-page-title>
          {title}
        </h1>
        <div className="sg-toolbar__end">{end}</div>
      </header>
      <main className="sg-page__content">{children}</main>
      {footer ? <footer className="sg-page__footer">{footer}</footer> : null}
    </div>
  );
}
