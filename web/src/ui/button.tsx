import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn.ts';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

const variants: Record<Variant, string> = {
  primary: 'bg-accent text-white hover:bg-[#4338CA] border border-transparent',
  secondary: 'bg-bg text-fg border border-control hover:bg-muted',
  danger: 'bg-danger text-white border border-transparent hover:bg-[#991B1B]',
  ghost: 'text-fg hover:bg-muted border border-transparent',
};

export function buttonClass(variant: Variant = 'secondary', extra?: string): string {
  return cn(
    'inline-flex h-8 items-center justify-center gap-1.5 rounded-md px-3 text-[13px] font-medium whitespace-nowrap',
    'disabled:cursor-not-allowed disabled:opacity-60 pointer-coarse:h-10',
    variants[variant],
    extra,
  );
}

export function Button({
  variant = 'secondary',
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}
