import {
  BackButton,
  Button,
  CheckboxField,
  Page,
  TextField,
  useOverlays,
  type SignUpErrorCode,
  type SignUpField,
  useTranslation,
} from '@special-gift/shared';
import type { ComponentProps, FormEvent, MouseEvent } from 'react';
import { NAME_MAX_LENGTH } from '@special-gift/shared/validation';
import { canSendWithAppClosed } from './can-send-with-app-closed';
import { CardCodeHelp } from './card-code-help';
import { ScanCardButton } from './card-scanner/scan-card-button';
import { TermsContent } from './terms-content';
import { useOnline } from './use-online';
import { useSignUpForm } from './use-sign-up-form';
import { fieldId } from './sign-up-values';
import './sign-up-screen.css';

// An input's maxLength counts UTF-16 units and the rule counts characters: a name of the rule's
// NAME_MAX_LENGTH characters can take twice as many units. Past the rule, its message says so.
const NAME_INPUT_MAX_LENGTH = NAME_MAX_LENGTH * 2;

interface PersonalField extends Pick<
  ComponentProps<typeof TextField>,
  'type' | 'inputMode' | 'autoComplete' | 'spellCheck' | 'maxLength'
> {
  readonly field: 'firstName' | 'lastName' | 'email' | 'phone';
  /** The field has a hint under it (`hints.<field>`). */
  readonly hasHint?: boolean;
}

/** The "you" section, in the form's order: each field's keyboard, autofill and length. */
const PERSONAL_FIELDS: readonly PersonalField[] = [
  { field: 'firstName', autoComplete: 'given-name', maxLength: NAME_INPUT_MAX_LENGTH },
  { field: 'lastName', autoComplete: 'family-name', maxLength: NAME_INPUT_MAX_LENGTH },
  { field: 'email', type: 'email', inputMode: 'email', autoComplete: 'email', spellCheck: false },
  { field: 'phone', type: 'tel', inputMode: 'tel', autoComplete: 'tel', hasHint: true },
];

/** The sign-up form: who you are, your card code, consent; then the thank-you screen. */
export function SignUpScreen() {
  const { t } = useTranslation('signup');
  const overlays = useOverlays();
  const form = useSignUpForm();
  const online = useOnline();
  const { values, errors } = form;

  const message = (field: SignUpField) => {
    const code: SignUpErrorCode | undefined = errors[field];
    return code ? t([`errors.${field}.${code}`, `errors.${code}`]) : undefined;
  };
  const text = (field: 'firstName' | 'lastName' | 'email' | 'phone' | 'cardCode') => ({
    id: fieldId(field),
    name: field,
    value: values[field],
    error: message(field),
    announceError: form.announceErrors,
    onChange: (event: { target: { value: string } }) => form.change(field, event.target.value),
    onBlur: () => form.blur(field),
  });

  const openTerms = async () => {
    const { role } = await overlays.modal({
      title: t('terms.title'),
      render: (dismiss) => <TermsContent onAccept={() => dismiss(undefined, 'confirm')} />,
    });
    if (role === 'confirm') form.change('acceptedTerms', true);
  };
  const openCardHelp = (event: MouseEvent<HTMLButtonElement>) => {
    void overlays.popover({ title: t('cardHelp.title'), anchor: event.currentTarget, render: () => <CardCodeHelp /> });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.submit();
  };

  if (form.queued) {
    // Sent by the host when the network returns (docs/offline.md). "You can close this page" is
    // true only where Background Sync wakes the worker with the app closed (Chromium); elsewhere it
    // goes while a page of the app is open, or the next time the app opens with a connection.
    // Online, it was our service that did not answer: said so, and when it is tried again (the
    // browser's Background Sync gives up after a few tries, so no "close this page"). Texts older
    // than that sentence: the offline one.
    const message = online
      ? t(['queue.unreachable', 'queue.messageWhenOpen'])
      : t(canSendWithAppClosed() ? 'queue.message' : 'queue.messageWhenOpen');
    return (
      <Page title={t('title')} start={<BackButton defaultHref="/" label={t('back')} />}>
        <div className="signup__queued" role="status">
          <h2 className="signup__queued-title">{t('queue.title')}</h2>
          <p>{message}</p>
        </div>
      </Page>
    );
  }

  return (
    <Page title={t('title')} start={<BackButton defaultHref="/" label={t('back')} />}>
      <p className="signup__lead">{t('lead')}</p>
      <form className="signup__form" noValidate onSubmit={onSubmit} aria-busy={!form.ready || undefined}>
        <fieldset className="signup__group">
          <legend className="signup__legend">{t('sections.you')}</legend>
          {PERSONAL_FIELDS.map(({ field, hasHint, ...input }) => (
            <TextField
              key={field}
              {...text(field)}
              {...input}
              label={t(`fields.${field}`)}
              hint={hasHint ? t(`hints.${field}`) : undefined}
            />
          ))}
        </fieldset>
        <fieldset className="signup__group">
          <legend className="signup__legend">{t('sections.card')}</legend>
          <TextField
            {...text('cardCode')}
            label={t('fields.cardCode')}
            inputMode="numeric"
            autoComplete="off"
            dir="ltr"
            className="signup__card-code"
            hint={t('hints.cardCode')}
            labelAddon={
              <button type="button" className="signup__help-link" onClick={openCardHelp}>
                {t('cardHelp.link')}
              </button>
            }
          />
          <ScanCardButton
            cardFieldId={fieldId('cardCode')}
            nextFieldId={fieldId('acceptedTerms')}
            onScanned={form.fillCardCode}
          />
        </fieldset>
        <CheckboxField
          id={fieldId('acceptedTerms')}
          name="acceptedTerms"
          checked={values.acceptedTerms}
          onChange={(event) => form.change('acceptedTerms', event.target.checked)}
          error={message('acceptedTerms')}
          announceError={form.announceErrors}
          label={
            <>
              {t('consent.before')}{' '}
              <button type="button" className="signup__help-link" onClick={() => void openTerms()}>
                {t('consent.link')}
              </button>
            </>
          }
        />
        {/* Disabled until the form is ready (its code has run and the draft was read): before that,
            in the prerendered page, the browser would send the form itself, its values in the URL. */}
        <Button type="submit" expand busy={form.submitting} disabled={!form.ready} className="signup__submit">
          {form.submitting ? t('submitting') : t('submit')}
        </Button>
      </form>
    </Page>
  );
}
